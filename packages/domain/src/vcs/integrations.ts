import type { CreateVcsIntegrationInput, UpdateVcsIntegrationInput, VcsHost } from '@trackline/contracts';
import { type Actor, can, requirePermission } from '../auth/actor.js';
import { randomSecret, sha256Hex } from '../auth/secrets.js';
import { DomainError } from '../errors.js';
import { tables } from '../model/database.js';
import { type IProject, Project } from '../model/project.entity.js';
import { type IRole, Role } from '../model/role.entity.js';
import { type IUser, User } from '../model/user.entity.js';
import {
  type IVcsIntegration,
  VcsChange,
  VcsDelivery,
  VcsEffect,
  VcsIntegration,
  VcsIntegrationProject,
} from '../model/vcs.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { readQuery } from '../orm/typed-query.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { batchByTurn } from '../read-models/batch-by-turn.js';
import { insertUser } from '../users/users.js';

/** An integration with what its representation names: linked projects, role, service account. */
export type VcsIntegrationView = {
  integration: IVcsIntegration;
  /** `deleted` while the project is in the trash. */
  projects: { id: number; shortName: string; deleted?: boolean }[];
  committersRole: string | null;
  serviceUser: string;
};

const KIND = 'VCS integration';
const requireAdmin = (actor: Actor) => requirePermission(actor, 'ADMIN_VCS_INTEGRATION');
export const serviceLogin = (name: string) => `vcs@${name}`;
const newApiKey = () => `vcs_${randomSecret(24)}`;

async function view(em: Em, integration: IVcsIntegration): Promise<VcsIntegrationView> {
  const links = await em.find(
    VcsIntegrationProject,
    { integration },
    { populate: ['project'], orderBy: { project: { shortNameKey: 'asc' } } },
  );
  const role = integration.committersRole
    ? await em.findOne(Role, { id: integration.committersRole.id })
    : null;
  const service = await em.findOneOrFail(User, { id: integration.serviceUser.id });
  return {
    integration,
    projects: links.map((l) => ({
      id: l.project.id,
      shortName: l.project.shortName,
      ...(l.project.deletedAt ? { deleted: true } : {}),
    })),
    committersRole: role?.name ?? null,
    serviceUser: service.login,
  };
}

/**
 * Whether the actor administers integrations of this project: it must read the project and
 * hold ADMIN_VCS_INTEGRATION there (today a global permission, so: hold it at all).
 */
const administers = (actor: Actor, projectId: number) =>
  can(actor, 'READ_PROJECT', projectId) && can(actor, 'ADMIN_VCS_INTEGRATION', projectId);

/**
 * A link the actor may administer: its project administered, or in the trash (where no
 * permission holds, so counting it would lock the integration until the purge; the
 * integration then shows the project as deleted).
 */
const administersLink = (actor: Actor, link: { project: { id: number; deletedAt?: Date | null } }) =>
  link.project.deletedAt != null || administers(actor, link.project.id);

/**
 * The integration, when the actor administers every project linked to it. One that links a
 * project the actor cannot administer looks missing (404, like an unreadable project): its
 * deliveries carry that project's commits, and its apiKey and secret let commands in.
 */
export async function findAdministeredIntegration(
  em: Em,
  actor: Actor,
  name: string,
): Promise<IVcsIntegration> {
  requireAdmin(actor);
  const integration = await em.findOne(VcsIntegration, { nameKey: name.toLowerCase() });
  if (!integration) throw DomainError.notFound(KIND, name);
  const links = await em.find(VcsIntegrationProject, { integration }, { populate: ['project'] });
  if (!links.every((l) => administersLink(actor, l))) throw DomainError.notFound(KIND, name);
  return integration;
}

/** Linked projects must exist and be administered by the caller (else 404, no probing). */
async function resolveProjects(em: Em, actor: Actor, shortNames: string[]): Promise<IProject[]> {
  if (shortNames.length === 0) throw DomainError.invalid('projects', 'must name at least one project');
  const keys = [...new Set(shortNames.map((s) => s.toUpperCase()))];
  const found = await em.find(Project, { shortNameKey: { $in: keys } });
  for (const key of keys) {
    const project = found.find((p) => p.shortNameKey === key);
    if (!project || !administers(actor, project.id)) throw DomainError.notFound('Project', key);
  }
  return found;
}

async function resolveRole(em: Em, name: string): Promise<IRole> {
  const role = await em.findOne(Role, { nameKey: name.toLowerCase() });
  if (!role) throw DomainError.notFound('Role', name);
  return role;
}

/** The account that writes comments for unmatched committers; reused when an integration is re-created. */
async function serviceUserFor(em: Em, name: string): Promise<IUser> {
  const login = serviceLogin(name);
  const existing = await em.findOne(User, { loginKey: login.toLowerCase() });
  if (existing?.type === 'service') return existing;
  if (existing) throw new DomainError('ALREADY_EXISTS', `Login [ ${login} ] is taken by a user.`);
  return insertUser(em, { login, fullName: `VCS integration ${name}`, type: 'service' });
}

function linkProjects(em: Em, integration: IVcsIntegration, projects: IProject[]) {
  for (const project of projects) em.create(VcsIntegrationProject, { integration, project });
}

/** The integrations all of whose linked projects the actor administers; the others are left out. */
export async function listVcsIntegrations(em: Em, actor: Actor): Promise<VcsIntegrationView[]> {
  requireAdmin(actor);
  const all = await em.find(VcsIntegration, {}, { orderBy: { nameKey: 'asc' } });
  const hidden = new Set<number>();
  for (const link of await em.find(VcsIntegrationProject, {}, { populate: ['project'] })) {
    if (!administersLink(actor, link)) hidden.add(link.integration.id);
  }
  return Promise.all(all.filter((i) => !hidden.has(i.id)).map((i) => view(em, i)));
}

export async function getVcsIntegration(em: Em, actor: Actor, name: string): Promise<VcsIntegrationView> {
  return view(em, await findAdministeredIntegration(em, actor, name));
}

/** Creates the integration and its service account; the apiKey is returned once, stored hashed. */
export async function createVcsIntegration(
  em: Em,
  actor: Actor,
  input: CreateVcsIntegrationInput,
): Promise<{ view: VcsIntegrationView; apiKey: string }> {
  requireAdmin(actor);
  const apiKey = newApiKey();
  return onUniqueViolation(
    async () => {
      const integration = await inTransaction(em, async (tx) => {
        if (await tx.findOne(VcsIntegration, { nameKey: input.name.toLowerCase() }))
          throw DomainError.alreadyExists(KIND, input.name);
        const projects = await resolveProjects(tx, actor, input.projects);
        const role = await resolveRole(tx, input.committersRole);
        const integration = tx.create(VcsIntegration, {
          name: input.name,
          nameKey: input.name.toLowerCase(),
          host: input.host,
          repository: input.repository,
          apiKeyHash: sha256Hex(apiKey),
          secret: input.secret || null,
          branches: input.branches ?? '',
          requirePusherMatch: input.requirePusherMatch ?? true,
          committersRole: role,
          serviceUser: await serviceUserFor(tx, input.name),
        });
        linkProjects(tx, integration, projects);
        await tx.flush();
        return integration;
      });
      return { view: await view(em, integration), apiKey };
    },
    rejectWith(() => DomainError.alreadyExists(KIND, input.name)),
  );
}

/** Changes what is given; an empty secret removes it; `regenerateApiKey` returns a new key once. */
export async function updateVcsIntegration(
  em: Em,
  actor: Actor,
  input: UpdateVcsIntegrationInput,
): Promise<{ view: VcsIntegrationView; apiKey?: string }> {
  const apiKey = input.regenerateApiKey ? newApiKey() : undefined;
  const integration = await inTransaction(em, async (tx) => {
    const integration = await findAdministeredIntegration(tx, actor, input.name);
    if (input.repository !== undefined) integration.repository = input.repository;
    if (input.branches !== undefined) integration.branches = input.branches;
    if (input.secret !== undefined) integration.secret = input.secret || null;
    if (input.requirePusherMatch !== undefined) integration.requirePusherMatch = input.requirePusherMatch;
    if (input.committersRole !== undefined)
      integration.committersRole = await resolveRole(tx, input.committersRole);
    if (apiKey) integration.apiKeyHash = sha256Hex(apiKey);
    if (input.projects !== undefined) {
      const projects = await resolveProjects(tx, actor, input.projects);
      await tx.nativeDelete(VcsIntegrationProject, { integration });
      linkProjects(tx, integration, projects);
    }
    await tx.flush();
    return integration;
  });
  return { view: await view(em, integration), ...(apiKey ? { apiKey } : {}) };
}

/** Deletes the integration and its queue; recorded changes and comments stay on the issues. */
export async function deleteVcsIntegration(em: Em, actor: Actor, name: string): Promise<string> {
  const integration = await findAdministeredIntegration(em, actor, name);
  await inTransaction(em, async (tx) => {
    // Explicit, like deleteProject: nothing depends on the foreign_keys pragma.
    await tx.nativeUpdate(VcsChange, { integration }, { integration: null, delivery: null });
    await tx.nativeDelete(VcsEffect, { integration });
    await tx.nativeDelete(VcsDelivery, { integration });
    await tx.nativeDelete(VcsIntegrationProject, { integration });
    await tx.nativeDelete(VcsIntegration, { id: integration.id });
  });
  return `${KIND} [ ${integration.name} ] was successfully deleted.`;
}

/** What receiving a hook needs of its integration (read with one prepared statement). */
export type HookIntegration = Pick<
  IVcsIntegration,
  'id' | 'name' | 'host' | 'repository' | 'secret' | 'branches'
>;

/** The integrations of the given apiKey hashes (null where none), by one statement. */
async function integrationsByKeyHash(em: Em, hashes: readonly string[]): Promise<(HookIntegration | null)[]> {
  const unique = [...new Set(hashes)];
  const rows = await readQuery(
    em,
    tables
      .selectFrom('vcs_integrations')
      .select(['id', 'name', 'host', 'repository', 'secret', 'branches', 'api_key_hash'])
      .where('api_key_hash', 'in', unique),
  );
  const byHash = new Map(rows.map(({ api_key_hash, ...row }) => [api_key_hash, row]));
  return hashes.map((hash) => byHash.get(hash) ?? null);
}

/** Hooks arriving together (a burst of pushes, most with one apiKey) share one lookup. */
const integrationByKeyHash = batchByTurn(integrationsByKeyHash);

/** The integration an apiKey belongs to (looked up by its hash), for the receiver. */
export async function findIntegrationByApiKey(
  em: Em,
  host: VcsHost,
  apiKey: string | null,
): Promise<HookIntegration> {
  if (!apiKey) throw DomainError.unauthenticated('An apiKey is required.');
  const row = await integrationByKeyHash(em, sha256Hex(apiKey));
  if (!row) throw DomainError.unauthenticated('Unknown apiKey.');
  const integration: HookIntegration = { ...row, id: Number(row.id) };
  if (integration.host !== host) {
    throw DomainError.forbidden(`receive ${host} hooks with the apiKey of a ${integration.host} integration`);
  }
  return integration;
}
