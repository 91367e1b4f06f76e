// Package browsertest drives a headless Chromium for the browser tests of
// our web pages (the monitor, the season page) through
// github.com/chromedp/chromedp: it finds the browser, starts
// it with a throw-away profile and no network chatter, and gives a test a
// page whose every call fails the test on error. Tests check what a person
// sees (computed style, bounding boxes, canvas pixels, text on screen) and
// wait on conditions evaluated in the page, never on fixed sleeps.
package browsertest
