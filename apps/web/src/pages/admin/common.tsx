import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { messageOf } from '../../api';

/** Runs a change, shows its error, and refreshes the queries under `refresh` afterwards. */
export function useAction(refresh: readonly unknown[]) {
  const client = useQueryClient();
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const run = async (work: () => Promise<unknown>, message = '') => {
    setError('');
    setDone('');
    try {
      await work();
      await client.invalidateQueries({ queryKey: refresh });
      setDone(message);
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    }
  };
  const feedback = (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="done" role="status">
        {done}
      </p>
    </>
  );
  return { run, feedback };
}

export function Panel({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = id ?? `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/** The original's colour indices (0: none) as the server paints them. */
export const PALETTE = [
  { bg: '#ffffff', fg: '#444444', name: 'No colour' },
  { bg: '#8d5100', fg: '#ffffff', name: 'Brown' },
  { bg: '#ce6700', fg: '#ffffff', name: 'Orange' },
  { bg: '#409600', fg: '#ffffff', name: 'Green' },
  { bg: '#0070e4', fg: '#ffffff', name: 'Blue' },
  { bg: '#900052', fg: '#ffffff', name: 'Plum' },
  { bg: '#0050a1', fg: '#ffffff', name: 'Navy' },
  { bg: '#2f9890', fg: '#ffffff', name: 'Teal' },
  { bg: '#8e1600', fg: '#ffffff', name: 'Red' },
  { bg: '#dc0083', fg: '#ffffff', name: 'Magenta' },
  { bg: '#7dbd36', fg: '#ffffff', name: 'Lime' },
  { bg: '#ff7123', fg: '#ffffff', name: 'Tangerine' },
];
