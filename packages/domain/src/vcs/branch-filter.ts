const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether commits on `branch` count: the filter is space-separated branch names where `*`
 * matches any run of characters (`release/*`); an empty filter takes every branch.
 */
export function branchMatches(filter: string, branch: string): boolean {
  const patterns = filter.split(/\s+/).filter((p) => p.length > 0);
  if (patterns.length === 0) return true;
  return patterns.some((pattern) => {
    const name = pattern.startsWith('refs/heads/') ? pattern.slice('refs/heads/'.length) : pattern;
    const regex = new RegExp(`^${name.split('*').map(escapeRegExp).join('.*')}$`);
    return regex.test(branch);
  });
}
