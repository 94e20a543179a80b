package samples

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"go.k6.io/k6/v2/lib/fsext"
	"go.k6.io/k6/v2/metrics"
	"go.k6.io/k6/v2/output"
)

// run feeds samples through a harness-samples output writing to name on an in-memory file system and returns the file.
func run(t *testing.T, name string, feed func(add func(metrics.Sample))) []byte {
	t.Helper()
	fs := fsext.NewMemMapFs()
	out, err := New(output.Params{ConfigArgument: name, FS: fs, Logger: logrus.New()})
	if err != nil {
		t.Fatal(err)
	}
	if err := out.Start(); err != nil {
		t.Fatal(err)
	}
	feed(func(s metrics.Sample) { out.AddMetricSamples([]metrics.SampleContainer{s}) })
	if err := out.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := fsext.ReadFile(fs, name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func feedRun(add func(metrics.Sample)) {
	registry := metrics.NewRegistry()
	duration := registry.MustNewMetric("http_req_duration", metrics.Trend, metrics.Time)
	waiting := registry.MustNewMetric("http_req_waiting", metrics.Trend, metrics.Time)
	failed := registry.MustNewMetric("events_failed", metrics.Rate)
	root := registry.RootTagSet()
	at := time.UnixMilli(1_764_115_200_123)
	sample := func(m *metrics.Metric, tags *metrics.TagSet, value float64) metrics.Sample {
		return metrics.Sample{TimeSeries: metrics.TimeSeries{Metric: m, Tags: tags}, Time: at, Value: value}
	}
	add(sample(duration, root.With("endpoint", "events").With("status", "202"), 12.345))
	add(sample(waiting, root.With("endpoint", "events"), 11.5))
	add(sample(duration, root.With("endpoint", "token"), 3.25))
	add(sample(duration, root.With("name", "untagged"), 99))
	add(sample(failed, root, 0))
	add(sample(failed, root.With("status", "500"), 1))
}

const want = Header + "\n" +
	"1764115200123,events,12.345\n" +
	"1764115200123,token,3.25\n" +
	"1764115200123,failed,0\n" +
	"1764115200123,failed,1\n"

func TestWritesOnlyTheSamplesTheRecordReads(t *testing.T) {
	if got := string(run(t, "samples.txt", feedRun)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGzipsWhenTheNameEndsInGz(t *testing.T) {
	reader, err := gzip.NewReader(bytes.NewReader(run(t, "samples.txt.gz", feedRun)))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(reader)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != want {
		t.Fatalf("got\n%s\nwant\n%s", data, want)
	}
}

func TestRefusesAMissingFileName(t *testing.T) {
	if _, err := New(output.Params{ConfigArgument: "", FS: fsext.NewMemMapFs(), Logger: logrus.New()}); err == nil {
		t.Fatal("no error for --out harness-samples without a file name")
	}
}
