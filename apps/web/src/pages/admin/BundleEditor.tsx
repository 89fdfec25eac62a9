import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { trackline } from '../../api';
import { Chip } from '../../components/Chip';
import { Dialog } from '../../components/Dialog';
import { FormActions } from '../../components/FormActions';
import { Field, OneFieldForm, PALETTE, RowAction, TableHead, useAction } from './common';

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
  const { run, ask, feedback } = useAction(key);
  const [renaming, setRenaming] = useState<string | null>(null);
  const move = (value: string, position: number) =>
    void run(() => trackline.bundles.moveValue.mutate({ bundleType, bundle, value, position }));
  const colours = bundleType === 'bundle' || bundleType === 'stateBundle';
  const update = (value: string, change: { colorIndex?: number; isResolved?: boolean }) =>
    void run(() => trackline.bundles.updateValue.mutate({ bundleType, bundle, value, ...change }));
  if (bundleType === 'userBundle') {
    return (
      <p className="muted">
        Users: {(data.data?.users ?? []).map((u) => u.login).join(', ') || 'none'}; groups:{' '}
        {(data.data?.groups ?? []).map((g) => g.name).join(', ') || 'none'} (see the project's assignees).
      </p>
    );
  }
  return (
    <div className="bundle-editor">
      <table className="table">
        <caption className="visually-hidden">Values of {bundle}</caption>
        <TableHead columns={['Value', colours && 'Colour', bundleType === 'stateBundle' && 'Resolved']} />
        <tbody>
          {(data.data?.values ?? []).map((v, index, all) => {
            const colour = PALETTE[(v.colorIndex ?? 0) % PALETTE.length] ?? PALETTE[0];
            return (
              <tr key={v.name}>
                <td>
                  <Chip
                    value={{
                      name: v.name,
                      color: v.colorIndex && colour ? { bg: colour.bg, fg: colour.fg } : null,
                    }}
                  />
                </td>
                {colours && (
                  <td>
                    <select
                      aria-label={`Colour of ${v.name}`}
                      value={v.colorIndex ?? 0}
                      onChange={(e) => update(v.name, { colorIndex: Number(e.target.value) })}
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
                      onChange={(e) => update(v.name, { isResolved: e.target.checked })}
                    />
                  </td>
                )}
                <td className="row-actions">
                  <button
                    type="button"
                    className="icon-button small-icon"
                    aria-label={`Move ${v.name} up`}
                    disabled={index === 0}
                    onClick={() => move(v.name, index - 1)}
                  >
                    <span aria-hidden="true">↑</span>
                  </button>
                  <button
                    type="button"
                    className="icon-button small-icon"
                    aria-label={`Move ${v.name} down`}
                    disabled={index === all.length - 1}
                    onClick={() => move(v.name, index + 1)}
                  >
                    <span aria-hidden="true">↓</span>
                  </button>
                  <RowAction label={`Rename ${v.name}`} danger={false} onClick={() => setRenaming(v.name)}>
                    Rename
                  </RowAction>
                  <RowAction
                    label={`Remove ${v.name}`}
                    onClick={() =>
                      void ask(
                        {
                          title: `Remove ${v.name} from ${bundle}?`,
                          body: (
                            <p>
                              Every field using {bundle} stops offering {v.name} (refused while issues hold
                              it). It can be added again as a new value.
                            </p>
                          ),
                          action: 'Remove value',
                        },
                        () => trackline.bundles.deleteValue.mutate({ bundleType, bundle, value: v.name }),
                      )
                    }
                  >
                    Remove
                  </RowAction>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <OneFieldForm
        label={`New value of ${bundle}`}
        button="Add value"
        submit={(value) =>
          run(() => trackline.bundles.addValue.mutate({ bundleType, bundle, value }), `Added ${value}.`)
        }
      />
      {feedback}
      {renaming !== null && (
        <RenameValueDialog
          value={renaming}
          onClose={() => setRenaming(null)}
          onRename={async (newName) => {
            const ok = await run(
              () => trackline.bundles.updateValue.mutate({ bundleType, bundle, value: renaming, newName }),
              `Renamed ${renaming} to ${newName}.`,
            );
            if (ok) setRenaming(null);
          }}
        />
      )}
    </div>
  );
}

/** A new name for a bundle value: issues holding it show the new name. */
function RenameValueDialog(props: { value: string; onClose(): void; onRename(name: string): Promise<void> }) {
  const [name, setName] = useState(props.value);
  return (
    <Dialog title={`Rename ${props.value}`} onClose={props.onClose}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim() && name.trim() !== props.value) void props.onRename(name.trim());
        }}
      >
        <Field label="New name">
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
            data-autofocus
          />
        </Field>
        <p className="muted small">Issues that hold {props.value} show the new name.</p>
        <FormActions submit="Rename" onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}
