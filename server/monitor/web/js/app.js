// The page's state: one object, app, that the page's sections read and
// change (docs/architecture.md, "The monitor page"). A change asks for a
// redraw, and the next animation frame draws what changed (frames.js).

// ?embed=1: the map and the timeline only (course pages, slides); the side
// panel is neither shown nor drawn.
export const embedded = new URLSearchParams(location.search).get('embed') === '1';
document.body.classList.toggle('embed', embedded);

export const app = {
  mode: 'loading', // live | replay | library | open (a published page without a replay)
  store: null,
  step: null, // the step shown (null: none yet)
  live: true, // live mode: follow the newest step
  playing: false,
  speed: 5, // steps per second
  selected: null, // agent name
  follow: false,
  view: 'map', // map | status
  shown: null, // the snapshot on screen
  state: 'connecting',
  dirty: true,
  data: 0, // counts the arrivals of data (dataChanged)
  tournament: null, // TournamentFeed (live mode)
  admin: null, // AdminControls (live mode)
  bannerClosed: null, // the simulation whose end banner was closed
  stats: null, // StatsWalk of the shown simulation
  sideLater: false, // the side panel waits for the next frame (render)
  firstFrameMs: undefined, // when the first step was drawn (performance.now())
  chartScores: undefined, // the store's scoresVersion the chart last drew
  painted: undefined, // {step, at}: when the step asked for was first drawn (notePainted)
  seekTarget: null, // a replay step sent to and not drawn yet (walkNow)
  seekAt: 0, // when (performance.now())
  seekDrawn: false, // the seek's step was drawn in the last frame
  statsAt: 0, // when the statistics table was last drawn
  statsShown: null, // the last step it counted
};

export function redraw() {
  app.dirty = true;
}

// dataChanged is the stores' and the feed's callback: new steps, scores or
// segments arrived, so what the panel derives from them may differ.
export function dataChanged() {
  app.data++;
  redraw();
}
