import type { VcsHost } from '@trackline/contracts';
import type { HeaderReader } from './hook-request.js';
import { verifyBitbucket } from './verify-bitbucket.js';
import { verifyGithub } from './verify-github.js';
import { verifyGitlab } from './verify-gitlab.js';

type Verifier = (header: HeaderReader, signed: Buffer, secret: string) => void;

const VERIFIERS: Record<VcsHost, Verifier> = {
  github: verifyGithub,
  gitlab: verifyGitlab,
  bitbucket: verifyBitbucket,
};

/** Throws UNAUTHENTICATED unless the call proves knowledge of the integration's secret. */
export function verifyHook(host: VcsHost, header: HeaderReader, signed: Buffer, secret: string): void {
  VERIFIERS[host](header, signed, secret);
}
