// The search benchmark's import bodies, written on a thread of their own a few requests ahead of
// the one being sent: generating 100 issues of random text takes the client about 5 ms, and the
// server used to wait for it between requests (about a fifth of the million's import time). The
// stream is the same deterministic one (search-data.mjs), so the same million issues arrive in
// the same order.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { importRequests } from './search-data.mjs';

if (!isMainThread && workerData?.searchBodies) {
  const requests = importRequests(workerData.issues);
  let credit = workerData.ahead;
  const pump = () => {
    for (; credit > 0; credit--) {
      const next = requests.next();
      parentPort.postMessage(next.done ? null : next.value);
      if (next.done) return;
    }
  };
  parentPort.on('message', () => {
    credit++;
    pump();
  });
  pump();
}

/**
 * The import requests of `issues` issues, `ahead` of them prepared in advance: `next()` answers
 * `{ project, count, body }`, or null after the last; `close()` stops the thread.
 */
export function importRequestsAhead(issues, ahead = 4) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { searchBodies: true, issues, ahead } });
  const ready = [];
  const waiting = [];
  let failure = null;
  worker.on('message', (message) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message);
    else ready.push(message);
  });
  worker.on('error', (error) => {
    failure = error;
    for (const waiter of waiting.splice(0)) waiter.reject(error);
  });
  return {
    next() {
      if (failure) return Promise.reject(failure);
      worker.postMessage(0); // one more may be written ahead
      if (ready.length) return Promise.resolve(ready.shift());
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    close: () => worker.terminate(),
  };
}
