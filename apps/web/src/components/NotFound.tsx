import { Link } from '../lib/router';
import { useTitle } from '../lib/title';

/** A URL the console does not know (`/no/such/page`, `/admin/nope`). */
export function NotFound() {
  useTitle('Page not found');
  return (
    <section className="centered-section">
      <h1>Page not found</h1>
      <p>The console has no page at this address.</p>
      <p>
        <Link href="/">Go to the issues</Link>
      </p>
    </section>
  );
}

/** An administration screen the caller may not use: says which permission it needs. */
export function NoAccess({ what, needs }: { what: string; needs: string }) {
  useTitle('No access');
  return (
    <section className="centered-section">
      <h1>No access</h1>
      <p>
        {what} needs the permission {needs}. Ask an administrator if you should have it.
      </p>
      <p>
        <Link href="/">Go to the issues</Link>
      </p>
    </section>
  );
}
