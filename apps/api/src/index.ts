export { type Env, readEnv } from './env.js';
export { createLogger } from './log/logger.js';
export { prepareDatabase, type RunningServer, type StartOptions, startServer } from './serve.js';
export { createRequestHandler, createServer, type ServerOptions } from './server.js';
export type { AppRouter } from './trpc/app.router.js';
export { appRouter } from './trpc/app.router.js';
