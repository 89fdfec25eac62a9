import { createHmac } from 'node:crypto';
import { digestsEqual, randomSecret } from '../auth/secrets.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, prepareRead, prepareWrite } from '../orm/typed-query.js';

/**
 * Keys of this installation, made once (the first process to need one inserts it; the others
 * read it): `unsubscribe` signs the one-click unsubscribe links, `installation` names this
 * installation in every Message-ID (two installations never share one).
 */
type KeyName = 'unsubscribe' | 'installation';

const keyQuery = prepareRead((param: Param<{ name: string }>) =>
  tables.selectFrom('installation_keys').select('value').where('name', '=', param('name')),
);
const keyInsert = prepareWrite((param: Param<{ name: string; value: string }>) =>
  tables
    .insertInto('installation_keys')
    .values({ name: param('name'), value: param('value') })
    .onConflict((oc) => oc.column('name').doNothing()),
);

const remembered = new WeakMap<object, Map<KeyName, string>>();

/** The key (made on first use, the same in every process); remembered per database. */
export async function installationKey(em: Em, name: KeyName): Promise<string> {
  const connection = em.getConnection();
  let keys = remembered.get(connection);
  if (!keys) {
    keys = new Map();
    remembered.set(connection, keys);
  }
  const known = keys.get(name);
  if (known) return known;
  let row = await keyQuery.first(em, { name });
  if (!row) {
    await keyInsert.run(em, { name, value: randomSecret(name === 'installation' ? 9 : 32) });
    row = await keyQuery.first(em, { name });
  }
  if (!row) throw new Error(`installation key ${name} could not be made`);
  keys.set(name, row.value);
  return row.value;
}

const mac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

/**
 * The token of a one-click unsubscribe link: the user id and a MAC over it (`<id>.<mac>`); it
 * switches that user's e-mail off and nothing else, so it needs no expiry.
 */
export async function unsubscribeToken(em: Em, userId: number): Promise<string> {
  const secret = await installationKey(em, 'unsubscribe');
  return `${userId}.${mac(secret, `unsubscribe:email:${userId}`)}`;
}

/** The user a well-formed, genuine token names, or null. */
export async function verifyUnsubscribeToken(em: Em, token: string): Promise<number | null> {
  const match = /^(\d{1,10})\.([0-9a-f]{64})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const secret = await installationKey(em, 'unsubscribe');
  return digestsEqual(mac(secret, `unsubscribe:email:${userId}`), match[2] as string) ? userId : null;
}
