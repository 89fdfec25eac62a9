import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { trackline } from '../../api';
import { readableText } from '../../lib/colors';
import { PALETTE, useAction } from './common';

export type BundleType =
  | 'bundle'
  | 'stateBundle'
  | 'versionBundle'
  | 'buildBundle'
  | 'ownedFieldBundle'
  | 'userBundle';

/** `enum[1]` → `bundle`, `state[1]` → `stateBundle`…; null for simple types. */
export function bundleTypeOf(fieldType: string): BundleType | null {
  const kind = fieldType.replace(/\[.*$/, '');
  const map: Record<string, BundleType> = {
    enum: 'bundle',
    state: 'stateBundle',
    version: 'versionBundle',
    build: 'buildBundle',
    ownedField: 'ownedFieldBundle',
    user: 'userBundle',
  };
  return map[kind] ?? null;
}

/** A bundle's values: colour (enum and state values), resolved (states), add and remove. */
export function BundleEditor({ bundleType, bundle }: { bundleType: BundleType; bundle: string }) {
  const key = ['bundle', bundleType, bundle] as const;
  const data = useQuery({
    queryKey: key,
    queryFn: () => trackline.bundles.get.query({ bundleType, bundle }),
  });
  const { run, feedback } = useAction(key);
  const [name, setName] = useState('');
  const colours = bundleType === 'bundle' || bundleType === 'stateBundle';
  if (bundleType === 'userBundle') {
    return (
      <p className="muted">
        Users: {(data.data?.users ?? []).map((u) => u.login).join(', ') || 'none'}; groups:{' '}
        {(data.data?.groups ?? []).map((g) => g.name).join(', ') || 'none'} (see the project's assignees).
      </p>
    );
  }
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (
      await run(
        () => trackline.bundles.addValue.mutate({ bundleType, bundle, value: name }),
        `Added ${name}.`,
      )
    )
      setName('');
  };
  return (
    <div className="bundle-editor">
      <table className="table">
        <caption className="visually-hidden">Values of {bundle}</caption>
        <thead>
          <tr>
            <th scope="col">Value</th>
            {colours && <th scope="col">Colour</th>}
            {bundleType === 'stateBundle' && <th scope="col">Resolved</th>}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(data.data?.values ?? []).map((v) => {
            const colour = PALETTE[(v.colorIndex ?? 0) % PALETTE.length] ?? PALETTE[0];
            return (
              <tr key={v.name}>
                <td>
                  <span
                    className="chip"
                    style={
                      v.colorIndex && colour
                        ? {
                            backgroundColor: colour.bg,
                            color: readableText(colour.bg, colour.fg),
                            borderColor: colour.bg,
                          }
                        : undefined
                    }
                  >
                    {v.name}
                  </span>
                </td>
                {colours && (
                  <td>
                    <select
                      aria-label={`Colour of ${v.name}`}
                      value={v.colorIndex ?? 0}
                      onChange={(e) =>
                        void run(() =>
                          trackline.bundles.updateValue.mutate({
                            bundleType,
                            bundle,
                            value: v.name,
                            colorIndex: Number(e.target.value),
                          }),
                        )
                      }
                    >
                      {PALETTE.map((p, i) => (
                        <option key={p.name} value={i}>
                          {p.name}
                        </option>
                      ))}
                    </select>
                  </td>
                )}
                {bundleType === 'stateBundle' && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${v.name} resolves the issue`}
                      checked={v.isResolved ?? false}
                      onChange={(e) =>
                        void run(() =>
                          trackline.bundles.updateValue.mutate({
                            bundleType,
                            bundle,
                            value: v.name,
                            isResolved: e.target.checked,
                          }),
                        )
                      }
                    />
                  </td>
                )}
                <td>
                  <button
                    type="button"
                    className="link-button danger"
                    aria-label={`Remove ${v.name}`}
                    onClick={() =>
                      void run(() =>
                        trackline.bundles.deleteValue.mutate({ bundleType, bundle, value: v.name }),
                      )
                    }
                  >
                    Remove
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <form className="row" onSubmit={add}>
        <label className="field inline">
          <span>New value of {bundle}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <button type="submit">Add value</button>
      </form>
      {feedback}
    </div>
  );
}
