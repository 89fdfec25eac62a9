export { createRequestHandler, createServer } from './server.js';
export type { AppRouter } from './trpc/app.router.js';
export { appRouter } from './trpc/app.router.js';
