/**
 * Whether the process is serving traffic, for the VCS worker to give way to it: requests are in
 * flight, or they keep arriving at more than a trickle (the last `arrivals` came within
 * `windowMs`). The second half matters under load: between an answer and the client's next
 * request nothing is in flight, yet the process is anything but idle. A trickle (a health
 * probe, an IDE polling now and then) does not count, so it cannot slow the worker down.
 */
export function createLoadSignal({ windowMs = 10, arrivals = 5, now = () => performance.now() } = {}) {
  let inFlight = 0;
  /** The times of the last `arrivals` arrivals, oldest at `next`. */
  const times = new Array<number>(arrivals).fill(Number.NEGATIVE_INFINITY);
  let next = 0;
  return {
    arrived(): void {
      inFlight++;
      times[next] = now();
      next = (next + 1) % arrivals;
    },
    finished(): void {
      inFlight--;
    },
    busy(): boolean {
      return inFlight > 0 || now() - (times[next] as number) < windowMs;
    },
  };
}
