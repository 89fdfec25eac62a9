import { z } from 'zod';
import { element, type RouteMeta } from '../common/route-meta.js';
import { ZLogin } from '../projects/project.contract.js';
import { ZUser } from './user.contract.js';

/*
 * `GET /user/current` and `GET /user/{login}`: the legacy user element
 * (`user login email fullName …`). `/user/{login}` is served after every other `/user/…`
 * route (search, tag, token, sessions), which therefore win over a login of that name.
 */

export const getCurrentUserMeta = {
  openapi: {
    method: 'GET',
    path: '/user/current',
    summary: 'The calling user',
    tags: ['Users'],
    errorResponses: [401],
  },
  xml: element('user'),
} satisfies RouteMeta;
export const ZGetCurrentUserInput = z.object({});

export const getUserProfileMeta = {
  openapi: {
    method: 'GET',
    path: '/user/{login}',
    summary: 'A user (oneself, or anyone with READ_USER)',
    tags: ['Users'],
    errorResponses: [401, 403, 404],
  },
  xml: element('user'),
} satisfies RouteMeta;
export const ZGetUserProfileInput = z.object({ login: ZLogin });
export const ZUserProfile = ZUser;

/**
 * The caller with what they may do (tRPC only): the console shows an action only to whom may
 * take it. `permissions`: held globally; `projects`: per readable project, held there.
 */
export const ZMeOutput = z.object({
  login: z.string(),
  fullName: z.string(),
  type: ZUser.shape.type,
  permissions: z.array(z.string()),
  projects: z.array(z.object({ shortName: z.string(), name: z.string(), permissions: z.array(z.string()) })),
});
export type MeDto = z.infer<typeof ZMeOutput>;
