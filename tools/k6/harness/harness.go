// Package harness is the k6 extension k6/x/harness: what the load scripts need from k6 that k6 has no option for.
package harness

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"go.k6.io/k6/v2/js/modules"
)

// ModuleName is the import path the load scripts require.
const ModuleName = "k6/x/harness"

func init() {
	modules.Register(ModuleName, new(rootModule))
}

type rootModule struct{}

// NewModuleInstance is called once per VU that requires the module.
func (*rootModule) NewModuleInstance(vu modules.VU) modules.Instance {
	return &instance{vu: vu}
}

type instance struct {
	vu     modules.VU
	capped bool
}

func (i *instance) Exports() modules.Exports {
	return modules.Exports{Named: map[string]any{
		"capResponseBodies": i.capResponseBodies,
		"vuIdInTest":        i.vuIDInTest,
	}}
}

// capResponseBodies makes every later response of this VU fail once its body passes maxBytes; k6 reads a kept body
// until it ends or the request times out, so an endless body otherwise fills memory at the rate the target sends.
// It needs the VU's state, so it is called from VU code (not the init context); a second call changes nothing.
func (i *instance) capResponseBodies(maxBytes int64) error {
	if maxBytes <= 0 {
		return fmt.Errorf("capResponseBodies: maxBytes must be positive, got %d", maxBytes)
	}
	state := i.vu.State()
	if state == nil {
		return errors.New("capResponseBodies: call it from VU code, not the init context")
	}
	if i.capped {
		return nil
	}
	// k6's http module takes state.Transport at each request (httpext's tracing transport wraps it).
	state.Transport = &CappedTransport{Next: state.Transport, MaxBytes: maxBytes}
	i.capped = true
	return nil
}

// vuIDInTest is the VU's number across every instance of the test (k6/execution's vu.idInTest): importing
// k6/execution for this one number built its whole object in every VU, about 4.8 KB of each VU's heap.
func (i *instance) vuIDInTest() (uint64, error) {
	state := i.vu.State()
	if state == nil {
		return 0, errors.New("vuIdInTest: call it from VU code, not the init context")
	}
	return state.VUIDGlobal, nil
}

// CappedTransport hands out responses whose body fails past MaxBytes.
type CappedTransport struct {
	Next     http.RoundTripper
	MaxBytes int64
}

// RoundTrip implements http.RoundTripper.
func (t *CappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.Next.RoundTrip(req)
	if resp != nil && resp.Body != nil {
		resp.Body = &cappedBody{body: resp.Body, left: t.MaxBytes, max: t.MaxBytes}
	}
	return resp, err
}

// ErrBodyTooLarge is the error a read past the cap returns.
type ErrBodyTooLarge struct{ MaxBytes int64 }

func (e *ErrBodyTooLarge) Error() string {
	return fmt.Sprintf("response body exceeded %s (the harness's cap)", formatBytes(e.MaxBytes))
}

func formatBytes(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// cappedBody reads at most max bytes; past them it closes the body (the connection is dropped, never drained) and
// every read returns ErrBodyTooLarge, so k6's own drain of the body stops too.
type cappedBody struct {
	body io.ReadCloser
	left int64
	max  int64
	mu   sync.Mutex
	err  error
}

func (b *cappedBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	if b.left <= 0 {
		// One byte more tells a body of exactly max bytes from a longer one.
		var probe [1]byte
		n, err := b.body.Read(probe[:])
		if n > 0 {
			b.err = &ErrBodyTooLarge{MaxBytes: b.max}
			_ = b.body.Close()
			return 0, b.err
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.body.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error {
	return b.body.Close()
}
