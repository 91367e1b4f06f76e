package monitor

import (
	"html"
	"regexp"
	"testing"
)

// TestEarlyElements_TheSegmentErrorIsAnAttributeOnOneLine: an error may
// hold anything; the page reads it back as the segment's header.
func TestEarlyElements_TheSegmentErrorIsAnAttributeOnOneLine(t *testing.T) {
	seg := newSegmentBody([][]byte{{1, 2, 3}}, nil)
	seg.err = "chunk at 123: \"bad\" <checksum>\nand more & ü"
	got := string(earlyElements([]byte(`{"a":"\u003c/script\u003e"}`), seg))
	m := regexp.MustCompile(`data-error="([^"]*)">`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no data-error attribute in %s", got)
	}
	if want := "chunk at 123: \"bad\" <checksum> and more & ü"; html.UnescapeString(m[1]) != want {
		t.Errorf("error %q, want %q", html.UnescapeString(m[1]), want)
	}
	if n := len(regexp.MustCompile(`</script>`).FindAllString(got, -1)); n != 2 {
		t.Errorf("%d ends of script elements, want 2: %s", n, got)
	}
}
