import type { AttachmentStore } from '@trackline/domain';

/** The hashes of every content `store` holds completely, sorted. */
export async function storedContents(store: AttachmentStore): Promise<string[]> {
  const hashes: string[] = [];
  for await (const hash of store.hashes()) hashes.push(hash);
  return hashes.sort();
}
