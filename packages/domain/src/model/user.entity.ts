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
    fullName: p.string().length(200),
    email: p.string().length(200).nullable(),
    /** Lower-cased e-mail, indexed for commit-author matching. */
    emailKey: p.string().length(200).nullable().index(),
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
     * login, no session, no token (auth/actor-read-model.ts reads banned accounts as absent).
     */
    banned: p.boolean().default(false),
    /** The user's saved context folder id (`/rest/issuesFolder/setContextFolder`); null means Everything. */
    contextFolder: p.string().length(100).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IUser = InferEntity<typeof User>;
