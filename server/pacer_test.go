package server

import (
	"testing"
	"time"
)

func TestAnswerPacer_HoldsAShareOfThePreviousWaitWithinItsCaps(t *testing.T) {
	const timeout = 4 * time.Second
	ms := time.Millisecond
	tests := []struct {
		name    string
		learnt  []time.Duration // waits of settled steps, in order
		timeout time.Duration
		want    time.Duration
	}{
		{"first step: nothing learnt, no hold", nil, timeout, 0},
		{"half the previous wait", []time.Duration{6 * ms}, timeout, 3 * ms},
		{"the last settled step counts", []time.Duration{30 * ms, 2 * ms}, timeout, 1 * ms},
		{"never more than maxHold", []time.Duration{400 * ms}, timeout, maxHold},
		{"never more than an eighth of the time to answer", []time.Duration{80 * ms}, 40 * ms, 5 * ms},
		{"a step without waiting holds nothing", []time.Duration{6 * ms, 0}, timeout, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p answerPacer
			for _, w := range tt.learnt {
				p.learn(w, true)
			}
			if got := p.hold(tt.timeout); got != tt.want {
				t.Errorf("hold(%v) = %v, want %v", tt.timeout, got, tt.want)
			}
		})
	}
}

func TestAnswerPacer_StepsThatRanIntoTheirDeadlineAreNotLearnt(t *testing.T) {
	var p answerPacer
	p.learn(4*time.Millisecond, true)
	p.learn(4*time.Second, false) // an agent never answered: the deadline, not the pace
	if got, want := p.hold(4*time.Second), 2*time.Millisecond; got != want {
		t.Errorf("after a step that timed out: hold = %v, want %v (the settled step's share)", got, want)
	}
}
