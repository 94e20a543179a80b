// Package samples is the k6 output extension harness-samples: the few samples a run's baseline record is built from
// (request latency by endpoint, and each event's failed-or-accepted sample), written compactly. k6's CSV output
// writes every sample of every metric (about 15 rows an event) and gzips them at its default level, which cost ours
// about a tenth of k6's CPU at high rates; this writes one short line for each sample the record reads.
package samples

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.k6.io/k6/v2/metrics"
	"go.k6.io/k6/v2/output"
)

// OutputName is what `--out harness-samples=FILE` names; `k6 version` lists it as `harness-samples [output]`.
const OutputName = "harness-samples"

// Header is the file's first line: the format and what each line holds.
const Header = "# harness-samples 1: unix ms,endpoint or failed,value"

// The metrics and tag the record reads (load/lib/metric-names.ts: ENDPOINT_TAG, METRIC.eventsFailed).
const (
	latencyMetric = "http_req_duration"
	endpointTag   = "endpoint"
	failedMetric  = "events_failed"
	failedKind    = "failed"
)

// flushEvery matches k6's CSV output: samples reach the file at most a second after k6 emits them.
const flushEvery = time.Second

func init() {
	output.RegisterExtension(OutputName, New)
}

// Output writes the samples the baseline record reads, gzipped at the fastest level when FILE ends in .gz.
type Output struct {
	output.SampleBuffer

	fileName string
	file     io.WriteCloser
	gz       *gzip.Writer
	writer   *bufio.Writer
	flusher  *output.PeriodicFlusher
	mu       sync.Mutex
	line     []byte
	err      error
}

// New opens FILE (`--out harness-samples=FILE`).
func New(params output.Params) (output.Output, error) {
	name := params.ConfigArgument
	if name == "" || name == "-" {
		return nil, errors.New(OutputName + " needs a file name: --out " + OutputName + "=FILE")
	}
	file, err := params.FS.Create(name)
	if err != nil {
		return nil, err
	}
	o := &Output{fileName: name, file: file, line: make([]byte, 0, 64)}
	var sink io.Writer = file
	if strings.HasSuffix(name, ".gz") {
		o.gz, err = gzip.NewWriterLevel(file, gzip.BestSpeed)
		if err != nil {
			_ = file.Close()
			return nil, err
		}
		sink = o.gz
	}
	o.writer = bufio.NewWriterSize(sink, 64*1024)
	return o, nil
}

// Description implements output.Output.
func (o *Output) Description() string {
	return fmt.Sprintf("%s (%s)", OutputName, o.fileName)
}

// Start writes the header and starts the periodic flush.
func (o *Output) Start() error {
	if _, err := o.writer.WriteString(Header + "\n"); err != nil {
		return err
	}
	flusher, err := output.NewPeriodicFlusher(flushEvery, o.flush)
	if err != nil {
		return err
	}
	o.flusher = flusher
	return nil
}

// Stop writes what is left and closes the file; the first write error, if any, is returned.
func (o *Output) Stop() error {
	if o.flusher != nil {
		o.flusher.Stop()
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	errs := []error{o.err, o.writer.Flush()}
	if o.gz != nil {
		errs = append(errs, o.gz.Close())
	}
	errs = append(errs, o.file.Close())
	return errors.Join(errs...)
}

func (o *Output) flush() {
	containers := o.GetBufferedSamples()
	if len(containers) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, container := range containers {
		for _, sample := range container.GetSamples() {
			o.write(sample)
		}
	}
}

// write appends one line for a sample the record reads and skips every other; it keeps the first write error.
func (o *Output) write(sample metrics.Sample) {
	var kind string
	switch sample.Metric.Name {
	case latencyMetric:
		if sample.Tags == nil {
			return
		}
		endpoint, ok := sample.Tags.Get(endpointTag)
		if !ok {
			return
		}
		kind = endpoint
	case failedMetric:
		kind = failedKind
	default:
		return
	}
	line := strconv.AppendInt(o.line[:0], sample.Time.UnixMilli(), 10)
	line = append(line, ',')
	line = append(line, kind...)
	line = append(line, ',')
	line = strconv.AppendFloat(line, sample.Value, 'f', -1, 64)
	line = append(line, '\n')
	o.line = line
	if _, err := o.writer.Write(line); err != nil && o.err == nil {
		o.err = err
	}
}
