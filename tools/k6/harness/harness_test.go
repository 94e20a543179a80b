package harness

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// get fetches the server's body through the cap; the body read and the read's error.
func get(t *testing.T, body func(w http.ResponseWriter), maxBytes int64) ([]byte, error) {
	t.Helper()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { body(w) }))
	defer server.Close()
	client := &http.Client{Transport: &CappedTransport{Next: http.DefaultTransport, MaxBytes: maxBytes}}
	resp, err := client.Get(server.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func TestBodyAtTheCapIsReadWhole(t *testing.T) {
	data, err := get(t, func(w http.ResponseWriter) { _, _ = w.Write([]byte(strings.Repeat("a", 1024))) }, 1024)
	if err != nil || len(data) != 1024 {
		t.Fatalf("got %d bytes, err %v; want 1024, nil", len(data), err)
	}
}

func TestEndlessBodyStopsPastTheCap(t *testing.T) {
	chunk := []byte(strings.Repeat("a", 64*1024))
	data, err := get(t, func(w http.ResponseWriter) {
		// Bounded by the client: a write fails once the capped reader has closed the connection.
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}, 1<<20)
	var tooLarge *ErrBodyTooLarge
	if !errors.As(err, &tooLarge) || err.Error() != "response body exceeded 1 MiB (the harness's cap)" {
		t.Fatalf("err %v; want ErrBodyTooLarge", err)
	}
	if len(data) != 1<<20 {
		t.Fatalf("read %d bytes; want exactly the cap", len(data))
	}
}
