import type { SqlEntityManager } from '@mikro-orm/sql';

/** The EntityManager every use case takes explicitly: always a per-request fork. */
export type Em = SqlEntityManager;
