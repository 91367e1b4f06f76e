// Package cdp drives a headless Chromium over the Chrome DevTools Protocol
// for the monitor's browser tests: launch, navigate, evaluate JavaScript,
// dispatch mouse and key events, take screenshots. It is a deliberately
// small client (one page, request/response by id) on gorilla/websocket.
package cdp

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// FindChromium returns the browser binary: $MASSIM_CHROMIUM, else the first
// of chromium, chromium-browser, google-chrome on the PATH.
func FindChromium() (string, error) {
	if p := os.Getenv("MASSIM_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found (install the Debian package chromium, or set MASSIM_CHROMIUM)")
}

// Browser is a running headless Chromium.
type Browser struct {
	cmd    *exec.Cmd
	dir    string
	http   string // host:port of the DevTools HTTP endpoint
	exited chan struct{}
}

var listening = regexp.MustCompile(`DevTools listening on ws://([^/]+)/`)

// Launch starts Chromium with a window of width×height CSS pixels and a
// throw-away profile, and waits for its DevTools endpoint.
func Launch(ctx context.Context, binary string, width, height int) (*Browser, error) {
	dir, err := os.MkdirTemp("", "massim-chromium-")
	if err != nil {
		return nil, fmt.Errorf("chromium profile: %w", err)
	}
	cmd := exec.Command(binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
		fmt.Sprintf("--window-size=%d,%d", width, height),
		"--remote-debugging-port=0", "--user-data-dir="+dir, "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("chromium: %w", err)
	}
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("start chromium: %w", err)
	}
	b := &Browser{cmd: cmd, dir: dir, exited: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	go func() {
		_ = cmd.Wait()
		close(b.exited)
	}()
	select {
	case b.http = <-found:
		return b, nil
	case <-b.exited:
		b.Close()
		return nil, errors.New("chromium exited before its DevTools endpoint was up")
	case <-ctx.Done():
		b.Close()
		return nil, fmt.Errorf("waiting for chromium: %w", ctx.Err())
	}
}

// Close ends the browser and removes its profile.
func (b *Browser) Close() {
	if b.cmd.Process != nil {
		_ = b.cmd.Process.Kill()
		<-b.exited
	}
	_ = os.RemoveAll(b.dir)
}

// Page attaches to the browser's first page.
func (b *Browser) Page(ctx context.Context) (*Page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+b.http+"/json/list", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("list targets: %w", err)
	}
	defer resp.Body.Close()
	var targets []struct {
		Type string `json:"type"`
		WS   string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		return nil, fmt.Errorf("list targets: %w", err)
	}
	for _, t := range targets {
		if t.Type == "page" {
			return dial(ctx, t.WS)
		}
	}
	return nil, errors.New("chromium has no page")
}

// Page is one tab.
type Page struct {
	conn    *websocket.Conn
	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[int]chan reply
	errs    []string // uncaught JavaScript exceptions and console errors
	closed  chan struct{}
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func dial(ctx context.Context, url string) (*Page, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.DialContext(ctx, url, nil)
	if err != nil {
		return nil, fmt.Errorf("attach to page: %w", err)
	}
	conn.SetReadLimit(64 << 20) // screenshots
	p := &Page{conn: conn, pending: map[int]chan reply{}, closed: make(chan struct{})}
	go p.read()
	for _, domain := range []string{"Page.enable", "Runtime.enable"} {
		if err := p.Call(ctx, domain, nil, nil); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *Page) read() {
	defer close(p.closed)
	for {
		var msg struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			reply
		}
		if err := p.conn.ReadJSON(&msg); err != nil {
			return
		}
		switch {
		case msg.ID != 0:
			p.mu.Lock()
			ch := p.pending[msg.ID]
			delete(p.pending, msg.ID)
			p.mu.Unlock()
			if ch != nil {
				ch <- msg.reply
			}
		case msg.Method == "Runtime.exceptionThrown":
			p.note("exception: " + string(msg.Params))
		case msg.Method == "Runtime.consoleAPICalled" && strings.Contains(string(msg.Params), `"type":"error"`):
			p.note("console.error: " + string(msg.Params))
		}
	}
}

func (p *Page) note(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, s)
}

// Errors lists the JavaScript exceptions and console errors seen so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

// Call sends a DevTools command and decodes its result into result (if not nil).
func (p *Page) Call(ctx context.Context, method string, params, result any) error {
	ch := make(chan reply, 1)
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.pending[id] = ch
	p.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	p.writeMu.Lock()
	err := p.conn.WriteJSON(msg)
	p.writeMu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if result != nil {
			if err := json.Unmarshal(r.Result, result); err != nil {
				return fmt.Errorf("%s: %w", method, err)
			}
		}
		return nil
	case <-p.closed:
		return fmt.Errorf("%s: connection to chromium lost", method)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Close detaches from the page.
func (p *Page) Close() { _ = p.conn.Close() }

// Navigate opens url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	var res struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.Call(ctx, "Page.navigate", map[string]any{"url": url}, &res); err != nil {
		return err
	}
	if res.ErrorText != "" {
		return fmt.Errorf("navigate to %s: %s", url, res.ErrorText)
	}
	return p.WaitFor(ctx, `document.readyState === "complete"`)
}

// Eval evaluates a JavaScript expression (awaiting a promise) and decodes
// its value into out (if not nil).
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res)
	if err != nil {
		return err
	}
	if res.Exception != nil {
		return fmt.Errorf("evaluate %q: %s %s", expr, res.Exception.Text, res.Exception.Exception.Description)
	}
	if out != nil && len(res.Result.Value) > 0 {
		return json.Unmarshal(res.Result.Value, out)
	}
	return nil
}

// WaitFor polls a JavaScript condition until it is true or ctx ends.
func (p *Page) WaitFor(ctx context.Context, cond string) error {
	var last error
	for {
		var ok bool
		last = p.Eval(ctx, "Boolean("+cond+")", &ok)
		if last == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if last != nil {
				return fmt.Errorf("waiting for %s: %w (last error: %v)", cond, ctx.Err(), last)
			}
			return fmt.Errorf("waiting for %s: %w", cond, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Screenshot captures the page as PNG.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	var res struct {
		Data string `json:"data"`
	}
	if err := p.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &res); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(res.Data)
}

// Mouse dispatches a mouse event (mousePressed, mouseMoved, mouseReleased,
// mouseWheel) at CSS pixel x, y with the left button.
func (p *Page) Mouse(ctx context.Context, kind string, x, y float64) error {
	params := map[string]any{"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}
	if kind == "mouseMoved" {
		params["buttons"] = 1
	}
	return p.Call(ctx, "Input.dispatchMouseEvent", params, nil)
}

// Wheel scrolls by dy at x, y.
func (p *Page) Wheel(ctx context.Context, x, y, dy float64) error {
	return p.Call(ctx, "Input.dispatchMouseEvent",
		map[string]any{"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": dy}, nil)
}

// Drag presses at (x0, y0), moves in steps to (x1, y1) and releases.
func (p *Page) Drag(ctx context.Context, x0, y0, x1, y1 float64, steps int) error {
	if err := p.Mouse(ctx, "mousePressed", x0, y0); err != nil {
		return err
	}
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		if err := p.Mouse(ctx, "mouseMoved", x0+(x1-x0)*f, y0+(y1-y0)*f); err != nil {
			return err
		}
	}
	return p.Mouse(ctx, "mouseReleased", x1, y1)
}

// keyCodes are the Windows virtual key codes Chromium needs for keys that
// produce no text.
var keyCodes = map[string]int{" ": 32, "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40,
	"Home": 36, "End": 35, "PageUp": 33, "PageDown": 34, "Escape": 27}

// Key presses and releases a key given by its DOM key value.
func (p *Page) Key(ctx context.Context, key string) error {
	down := map[string]any{"type": "keyDown", "key": key, "windowsVirtualKeyCode": keyCodes[key]}
	if len(key) == 1 {
		down["text"] = key
	}
	if err := p.Call(ctx, "Input.dispatchKeyEvent", down, nil); err != nil {
		return err
	}
	return p.Call(ctx, "Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": key, "windowsVirtualKeyCode": keyCodes[key]}, nil)
}
