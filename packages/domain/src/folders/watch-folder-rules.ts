import type { PermissionKey } from '@trackline/contracts';
import { type Actor, can, canAnywhere } from '../auth/actor.js';
import { DomainError } from '../errors.js';

/**
 * Saved searches and tags ("watch folders"): any account but the guest may own them;
 * sharing needs SHARE_WATCH_FOLDER (held anywhere); changing or deleting another user's
 * needs UPDATE_WATCH_FOLDER or DELETE_WATCH_FOLDER granted globally.
 */
export function requireOwnerAccount(actor: Actor, what: string): void {
  if (actor.type === 'guest') throw DomainError.forbidden(`${what} as the guest account`);
}

export function requireShare(actor: Actor): void {
  if (!canAnywhere(actor, 'SHARE_WATCH_FOLDER'))
    throw DomainError.forbidden('share saved searches and tags (SHARE_WATCH_FOLDER)');
}

export function requireOwnerOr(actor: Actor, ownerId: number, permission: PermissionKey, what: string): void {
  if (ownerId !== actor.userId && !can(actor, permission))
    throw DomainError.forbidden(`${what} of another user (${permission})`);
}

/** Wraps a value in braces when the search language needs them (`{Sample Project}`). */
export const searchValue = (value: string): string => (/^[^\s:,{}"#]+$/.test(value) ? value : `{${value}}`);
