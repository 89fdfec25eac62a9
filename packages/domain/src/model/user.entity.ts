import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { USER_TYPES } from '@trackline/contracts';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary().autoincrement(),
    login: p.string().length(100),
    /** Lower-cased login: logins are unique regardless of case. */
    loginKey: p.string().length(100).unique(),
    /**
     * SHA-256 (hex) of the login's look-alike skeleton (`users/login-skeleton.ts`): a new login
     * with another account's skeleton is refused. Null until the seed fills it (rows before 0059).
     */
    loginSkeleton: p.string().length(64).nullable().index(),
    fullName: p.string().length(200),
    email: p.string().length(200).nullable(),
    /**
     * Lower-cased e-mail, unique (an address belongs to one account: commits are matched by it).
     * Null without an e-mail, and for the accounts that shared one before migration 0058.
     */
    emailKey: p.string().length(200).nullable().unique(),
    /**
     * Who set the e-mail when it was not the account's owner (an administrator, the creator, an
     * import): the VCS committer match trusts such an e-mail only while that account still holds
     * everything this one holds (`vcs/committers.ts`). Null: set by the owner, or before this was
     * recorded. A plain id, not a foreign key: a deleted setter must leave the e-mail untrusted.
     */
    emailSetBy: p.integer().nullable(),
    /** Jabber (XMPP) address, kept for the legacy user attributes. */
    jabber: p.string().length(200).nullable(),
    passwordHash: p.string().length(200).nullable(),
    type: p.enum(USER_TYPES).default('user'),
    /**
     * A banned account keeps its issues, comments and grants but cannot authenticate: no password
     * login, no session, no token (auth/actor-read-model.ts reads banned accounts as absent); and
     * it is told nothing (no e-mail, no inbox entry). Migration 0056.
     */
    banned: p.boolean().default(false),
    /** The user's saved context folder id (`/rest/issuesFolder/setContextFolder`); null means Everything. */
    contextFolder: p.string().length(100).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IUser = InferEntity<typeof User>;
