/**
 * Resolves once an ink app (ink-testing-library) has rendered what the last key caused. A fixed pause is not enough
 * on a loaded machine: a key's first render can take longer than the pause, and the effects it sets off then render
 * after the test has looked (seen: Esc leaving the find field's line on screen under a load of 20). React's scheduler
 * runs that work in setImmediate tasks in Node, so three rounds of setImmediate in a row with no new frame mean it is
 * done: an order of events, not a time.
 */
export async function settled(app: { frames: readonly string[] }): Promise<void> {
  let seen = app.frames.length;
  let quiet = 0;
  for (let round = 0; round < 1000 && quiet < 3; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (app.frames.length === seen) quiet++;
    else {
      seen = app.frames.length;
      quiet = 0;
    }
  }
}
