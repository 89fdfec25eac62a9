import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { trackline } from '../../api';
import { BundleEditor, type BundleType } from './BundleEditor';
import { Field, Panel } from './common';

const TYPES: { type: BundleType; title: string }[] = [
  { type: 'bundle', title: 'Enumerations' },
  { type: 'stateBundle', title: 'States' },
  { type: 'versionBundle', title: 'Versions' },
  { type: 'ownedFieldBundle', title: 'Owned fields (subsystems)' },
  { type: 'buildBundle', title: 'Builds' },
];

/** Field prototypes, and every bundle by type with its values and their colours. */
export function FieldsAdmin() {
  const prototypes = useQuery({
    queryKey: ['admin-fields', 'prototypes'],
    queryFn: () => trackline.customFields.listPrototypes.query({}),
  });
  const [type, setType] = useState<BundleType>('bundle');
  const bundles = useQuery({
    queryKey: ['admin-fields', 'bundles', type],
    queryFn: () => trackline.bundles.list.query({ bundleType: type }),
  });
  return (
    <>
      <h1>Fields</h1>
      <Panel title="Field prototypes">
        <p>{(prototypes.data ?? []).map((p) => p.name).join(' · ')}</p>
      </Panel>
      <Panel title="Bundles and values">
        <Field label="Kind" inline>
          <select value={type} onChange={(e) => setType(e.target.value as BundleType)}>
            {TYPES.map((t) => (
              <option key={t.type} value={t.type}>
                {t.title}
              </option>
            ))}
          </select>
        </Field>
        {(bundles.data ?? []).map((b) => (
          <details key={b.name} className="field-details">
            <summary>{b.name}</summary>
            <BundleEditor bundleType={type} bundle={b.name} />
          </details>
        ))}
      </Panel>
    </>
  );
}
