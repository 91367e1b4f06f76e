package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Budget bounds one browser test: the browser stops when it runs out.
// Generous, because CI runs on two busy cores with the race detector.
const Budget = 4 * time.Minute

// waitLimit is the longest a single Wait may take.
const waitLimit = 90 * time.Second

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
	return "", errors.New("browsertest: no Chromium found (install the Debian package chromium, or set MASSIM_CHROMIUM)")
}

// Page is one tab of a headless Chromium owned by a test. Every method
// fails the test on error, so call them from the test's goroutine.
type Page struct {
	t   testing.TB
	ctx context.Context

	mu    sync.Mutex
	errs  []string // uncaught exceptions and console errors
	trace *trace   // the recording under way (StartTrace), if any
}

// Open starts Chromium with a 1280×800 viewport and a fresh profile, and
// returns its tab. Without Chromium the test is skipped locally and fails
// in CI (CI=true). The browser stops when the test ends.
func Open(t testing.TB) *Page {
	t.Helper()
	bin, err := FindChromium()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("browser tests need Chromium in CI: %v", err)
		}
		t.Skipf("skipping the browser test: %v", err)
	}
	profile, err := os.MkdirTemp("", "massim-chromium-")
	if err != nil {
		t.Fatalf("browsertest: chromium profile: %v", err)
	}
	budget, stopBudget := context.WithTimeout(context.Background(), Budget)
	allocCtx, stopAlloc := chromedp.NewExecAllocator(budget,
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Shared memory in files under /tmp where /dev/shm is too small for
		// Chromium (a container's 64 MB); where it is not, as on a desktop:
		// canvas frames handed to the compositor in files cost the first
		// seeks after opening a replay 11–12 ms each (timing tests).
		chromedp.Flag("disable-dev-shm-usage", !roomyDevShm()),
		chromedp.Flag("disable-extensions", true),
		// A page behind other work must keep its timers and frames going.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.WindowSize(1280, 800),
		chromedp.UserDataDir(profile),
	)
	p := &Page{t: t}
	tab, stopTab := chromedp.NewContext(allocCtx, chromedp.WithListener(p.listen))
	p.ctx = tab
	t.Cleanup(func() {
		// A graceful close, waiting for the process to end before its
		// profile is removed; stopping the allocator kills it otherwise.
		closing, cancel := context.WithTimeout(tab, 20*time.Second)
		_ = chromedp.Cancel(closing)
		cancel()
		stopTab()
		stopAlloc()
		stopBudget()
		_ = os.RemoveAll(profile)
	})
	// Start the browser, give every document of the tab the helpers of
	// helpersJS, and fix the viewport (the window size includes whatever
	// the browser's own frame takes).
	err = chromedp.Do(tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: helpersJS})
		return err
	}), chromedp.EmulateViewport(1280, 800))
	if err != nil {
		t.Fatalf("browsertest: start chromium: %v", err)
	}
	return p
}

// listen records uncaught exceptions and console errors. It runs on the
// tab's reader goroutine and must return at once.
func (p *Page) listen(ev any) {
	if p.traceEvent(ev) {
		return
	}
	var line string
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		line = fmt.Sprintf("exception: %s (%s:%d:%d)", d.Text, d.URL, d.LineNumber, d.ColumnNumber)
		if d.Exception != nil && d.Exception.Description != "" {
			line += ": " + d.Exception.Description
		}
	case *runtime.EventConsoleAPICalled:
		if e.Type != runtime.ConsoleAPICalledTypeError {
			return
		}
		parts := make([]string, 0, len(e.Args))
		for _, a := range e.Args {
			if a.Description != "" {
				parts = append(parts, a.Description)
			} else {
				parts = append(parts, string(a.Value))
			}
		}
		line = "console.error: " + strings.Join(parts, " ")
	default:
		return
	}
	p.mu.Lock()
	p.errs = append(p.errs, line)
	p.mu.Unlock()
}

// Errors lists the JavaScript exceptions and console errors seen so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

func (p *Page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("browsertest: %s: %v", what, err)
	}
}

// Navigate opens url and waits for its load event.
func (p *Page) Navigate(url string) {
	p.t.Helper()
	p.do("navigate to "+url, chromedp.Navigate(url))
}

// Eval evaluates a JavaScript expression, awaiting a promise, and decodes
// its value into out (if not nil).
func (p *Page) Eval(expr string, out any) {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("browsertest: evaluate %s: %v", expr, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			p.t.Fatalf("browsertest: evaluate %s: decode %s: %v", expr, raw, err)
		}
	}
}

// Int evaluates an expression of integer value.
func (p *Page) Int(expr string) int {
	p.t.Helper()
	var v int
	p.Eval(expr, &v)
	return v
}

// Text evaluates an expression of string value.
func (p *Page) Text(expr string) string {
	p.t.Helper()
	var v string
	p.Eval(expr, &v)
	return v
}

// Wait polls a JavaScript condition in the page until it is true. An
// exception counts as false (the page may not be ready yet); when the wait
// gives up, the message shows the condition's last value or exception.
func (p *Page) Wait(cond string) {
	p.t.Helper()
	safe := "(() => { try { return !!(" + cond + "); } catch (e) { return false; } })()"
	deadline := time.Now().Add(waitLimit)
	var err error
	for {
		_, err = chromedp.Run(p.ctx, chromedp.Poll[bool](safe,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Until(deadline))))
		// A poll running while the page replaces its document loses its
		// execution context: poll again in the new one.
		// A click that follows a link to another page closes the target
		// of a poll in flight: the same.
		lost := err != nil && (strings.Contains(err.Error(), "Cannot find context") ||
			strings.Contains(err.Error(), "Inspected target navigated or closed"))
		if !lost || time.Now().After(deadline) {
			break
		}
	}
	if err == nil {
		return
	}
	last := "unknown"
	if raw, everr := chromedp.Run(p.ctx, chromedp.Evaluate[[]byte]("(() => { try { return String("+cond+"); } catch (e) { return 'throws ' + e; } })()")); everr == nil {
		last = string(raw)
	}
	p.t.Fatalf("browsertest: waiting for %s: %v (now %s; page errors %q)", cond, err, last, p.Errors())
}

// Screenshot stores a PNG of the viewport as name under $MASSIM_ARTIFACTS
// (default a temporary folder) and logs where.
func (p *Page) Screenshot(name string) {
	p.t.Helper()
	dir := os.Getenv("MASSIM_ARTIFACTS")
	if dir == "" {
		dir = p.t.TempDir()
	}
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("browsertest: screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatalf("browsertest: screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatalf("browsertest: screenshot %s: %v", name, err)
	}
	p.t.Logf("screenshot: %s", path)
}

// Viewport resizes the page to width×height CSS pixels; a phone viewport
// also gets touch input and a device scale of 2.
func (p *Page) Viewport(width, height int, phone bool) {
	p.t.Helper()
	var opts []chromedp.EmulateViewportOption
	if phone {
		opts = append(opts, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	p.do("viewport", chromedp.EmulateViewport(int64(width), int64(height), opts...))
}

// DisableScripts turns the page's own scripts off (or on again), as a
// person who browses without JavaScript has them: for pages that must be
// readable without. Eval and Wait still work.
func (p *Page) DisableScripts(off bool) {
	p.t.Helper()
	p.do("disable scripts", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: off})
		return err
	}))
}

// ThrottleCPU slows the page's CPU down rate times (DevTools' CPU
// throttling, 1 = full speed): for tests of what a person sees while the
// page is still busy, which on a fast machine may be over before the
// first frame that could show it.
func (p *Page) ThrottleCPU(rate float64) {
	p.t.Helper()
	p.do("throttle CPU", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
		return err
	}))
}

// Key presses and releases a key: a character, or a key of package
// github.com/chromedp/chromedp/kb (kb.End, kb.ArrowLeft, …).
func (p *Page) Key(key string) {
	p.t.Helper()
	p.do("key "+key, chromedp.KeyEvent(key))
}

// Click presses and releases the left button at CSS pixel x, y.
func (p *Page) Click(x, y float64) {
	p.t.Helper()
	p.do("click", chromedp.MouseClickXY(x, y))
}

// Tap touches the screen at CSS pixel x, y (a phone's tap).
func (p *Page) Tap(x, y float64) {
	p.t.Helper()
	p.do("tap", chromedp.TapXY(x, y))
}

// Hover moves the mouse to x, y with no button pressed.
func (p *Page) Hover(x, y float64) {
	p.t.Helper()
	p.do("hover", chromedp.MouseEvent(chromedp.MouseMoved, x, y))
}

// Wheel scrolls by dy at x, y.
func (p *Page) Wheel(x, y, dy float64) {
	p.t.Helper()
	p.do("wheel", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, wheelEvent, wheelParams{Type: "mouseWheel", X: x, Y: y, DeltaY: dy})
		return err
	}))
}

// wheelEvent is Input.dispatchMouseEvent with deltaX and deltaY always
// sent: Chromium requires both for a wheel event, and cdproto's parameters
// leave out a zero deltaX.
var wheelEvent = cdp.Command[wheelParams, struct{}]{Method: input.CommandDispatchMouseEvent}

type wheelParams struct {
	Type   string  `json:"type"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	DeltaX float64 `json:"deltaX"`
	DeltaY float64 `json:"deltaY"`
}

// Drag presses at (x0, y0), moves in steps to (x1, y1) and releases.
func (p *Page) Drag(x0, y0, x1, y1 float64, steps int) {
	p.t.Helper()
	held := func(m *input.DispatchMouseEventParams) {
		m.Button = input.MouseButtonLeft
		m.Buttons = 1
		m.ClickCount = 1
	}
	actions := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, x0, y0, held)}
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		actions = append(actions, chromedp.MouseEvent(chromedp.MouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, held))
	}
	actions = append(actions, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, held))
	p.do("drag", actions...)
}

// Box is where an element is drawn and whether a person can see it.
type Box struct {
	Left, Top, Width, Height float64
	// Shown: the element exists, it and its ancestors are displayed,
	// visible and not transparent, it has an area and part of it lies
	// inside the viewport.
	Shown   bool
	Display string // its computed display
	Found   bool
}

// Box measures the first element matching a CSS selector.
func (p *Page) Box(selector string) Box {
	p.t.Helper()
	var b Box
	p.Eval("__box("+JSString(selector)+")", &b)
	return b
}

// JSString quotes s as a JavaScript string literal.
func JSString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// helpersJS is installed in every document of the tab, for conditions and
// measurements: __box(selector) measures an element as Box does,
// __shown(selector) says whether it is really displayed, and
// __topmost(selector) whether its centre is not covered by another element.
const helpersJS = `
window.__box = sel => {
  const e = document.querySelector(sel);
  if (!e) return {found: false, shown: false, display: '', left: 0, top: 0, width: 0, height: 0};
  const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
  const visible = e.checkVisibility({opacityProperty: true, visibilityProperty: true});
  const inView = r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
  return {found: true, shown: visible && r.width > 0 && r.height > 0 && inView, display: cs.display,
    left: r.left, top: r.top, width: r.width, height: r.height};
};
window.__shown = sel => window.__box(sel).shown;
window.__topmost = sel => {
  const e = document.querySelector(sel);
  if (!e) return false;
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === e || e.contains(hit));
};
`

// ChooseFiles puts files into the file input sel as a person choosing them
// in the browser's file picker does (its change event fires).
func (p *Page) ChooseFiles(sel string, paths ...string) {
	p.t.Helper()
	p.do("choose files in "+sel, chromedp.SetUploadFiles(sel, paths))
}
