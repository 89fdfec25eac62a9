import { describe, expect, it } from 'vitest';
import { createLoadSignal } from './load-signal.js';

/** A signal on a clock the test moves. */
function signalAt() {
  let t = 1000;
  const signal = createLoadSignal({ windowMs: 10, arrivals: 5, now: () => t });
  return { signal, advance: (ms: number) => (t += ms) };
}

describe('createLoadSignal', () => {
  it('is busy while a request is in flight, and idle once it is answered', () => {
    const { signal, advance } = signalAt();
    expect(signal.busy()).toBe(false);
    signal.arrived();
    advance(50);
    expect(signal.busy()).toBe(true);
    signal.finished();
    expect(signal.busy()).toBe(false);
  });

  it('stays busy between answers while requests keep arriving fast', () => {
    const { signal, advance } = signalAt();
    for (let i = 0; i < 5; i++) {
      signal.arrived();
      signal.finished();
      advance(1);
    }
    // Nothing in flight, but five arrivals within the last 10 ms.
    expect(signal.busy()).toBe(true);
    advance(10);
    expect(signal.busy()).toBe(false);
  });

  it('a trickle of requests, however steady, does not count as load', () => {
    const { signal, advance } = signalAt();
    for (let i = 0; i < 100; i++) {
      signal.arrived();
      signal.finished();
      advance(5);
      expect(signal.busy()).toBe(false);
    }
  });
});
