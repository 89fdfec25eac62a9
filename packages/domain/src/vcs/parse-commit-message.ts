/** The issues a commit message references, each with the commands written after it. */
export type CommitReference = {
  /** As written (`prj-12`); matched case-insensitively. */
  issue: string;
  /** Commands in message order, without duplicates; empty means comment only. */
  commands: string[];
};

// The legacy YouTrack rule: per line, the first `#ID` at the start or after a space.
const ISSUE_REF = /( |^)#(\w+-\d+)\b/;

/**
 * Reads a commit message line by line: `#PRJ-12 <command>` applies the rest of the line as
 * a command; `#PRJ-12` alone only records the commit (a comment). One entry per issue, in
 * order of first mention, so that one commit comments an issue once.
 */
export function parseCommitMessage(message: string): CommitReference[] {
  const byIssue = new Map<string, CommitReference>();
  for (const line of message.split(/\r?\n/)) {
    const match = ISSUE_REF.exec(line);
    const issue = match?.[2];
    if (!match || !issue) continue;
    const command = line.slice(match.index + match[0].length).trim();
    const key = issue.toUpperCase();
    let ref = byIssue.get(key);
    if (!ref) {
      ref = { issue, commands: [] };
      byIssue.set(key, ref);
    }
    if (command && !ref.commands.includes(command)) ref.commands.push(command);
  }
  return [...byIssue.values()];
}
