import type { XmlRendererName } from '@trackline/contracts';
import {
  BUNDLE_TYPE_NAMES,
  BUNDLE_XML,
  type BundleDto,
  type BundleTypeName,
  type BundleValueDto,
  type FieldPrototypeDto,
  type ProjectCustomFieldDto,
} from '@trackline/contracts';
import { escapeXml as attr, type CustomRenderer, escapeTextOneLine as text } from './xml.js';

const attrs = (record: Record<string, string | number | boolean | undefined>) =>
  Object.entries(record)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${attr(String(v))}"`)
    .join('');

const params = (tag: string, list: { name: string; value: string }[]) =>
  list.map((p) => `<${tag}${attrs({ name: p.name, value: p.value })}/>`).join('');

/** `<customFieldPrototype name type isPrivate visibleByDefault autoAttached><defaultParam name value/>…` */
function renderPrototype(data: unknown): string {
  const p = data as FieldPrototypeDto;
  const head = attrs({
    name: p.name,
    type: p.type,
    isPrivate: p.isPrivate,
    visibleByDefault: p.visibleByDefault,
    autoAttached: p.autoAttached,
  });
  return `<customFieldPrototype${head}>${params('defaultParam', p.defaultParam)}</customFieldPrototype>`;
}

/** `<projectCustomField name type emptyText canBeEmpty url><param name="bundle" value/><defaultValue>…` */
function renderProjectField(data: unknown): string {
  const f = data as ProjectCustomFieldDto;
  const head = attrs({
    name: f.name,
    type: f.type,
    emptyText: f.emptyText,
    canBeEmpty: f.canBeEmpty,
    url: f.url,
  });
  const defaults = f.defaultValue.map((v) => `<defaultValue>${text(v)}</defaultValue>`).join('');
  return `<projectCustomField${head}>${params('param', f.param)}${defaults}</projectCustomField>`;
}

/** The bundle type a listed bundle's URL names (`…/admin/customfield/stateBundle/States`). */
const typeOfUrl = (url: string | undefined): BundleTypeName | undefined =>
  BUNDLE_TYPE_NAMES.find((t) => url?.includes(`/admin/customfield/${t}/`));

/** `<enumFieldBundleRefs><enumFieldBundle name url/>…`, `<stateBundleRefs><stateBundle …/>` (names of the listed type). */
function renderBundleRefs(data: unknown): string {
  const refs = (Array.isArray(data) ? data : []) as { name: string; url: string }[];
  const type = typeOfUrl(refs[0]?.url) ?? 'bundle';
  const ref = BUNDLE_XML[type].ref;
  return `<${ref}Refs>${refs.map((r) => `<${ref}${attrs({ name: r.name, url: r.url })}/>`).join('')}</${ref}Refs>`;
}

const valueXml = (tag: string, v: BundleValueDto) => {
  const { name, ...rest } = v;
  return `<${tag}${attrs(rest)}>${text(name)}</${tag}>`;
};

/**
 * A bundle as the original writes it: `<enumeration name><value colorIndex description>A</value>`,
 * `<stateBundle><state isResolved>`, `<versions><version released archived releaseDate>`,
 * `<buildBundle><build assembleDate>`, `<ownedFieldBundle><ownedField owner>`,
 * `<userBundle><user login url/><userGroup name url/>`.
 */
function renderBundle(data: unknown): string {
  const b = data as BundleDto;
  const names = BUNDLE_XML[b.type];
  const body =
    b.type === 'userBundle'
      ? b.users.map((u) => `<user${attrs(u)}/>`).join('') +
        b.groups.map((g) => `<userGroup${attrs(g)}/>`).join('')
      : b.values.map((v) => valueXml(names.value, v)).join('');
  return `<${names.root}${attrs({ name: b.name })}>${body}</${names.root}>`;
}

export const FIELD_XML = {
  customFieldPrototype: renderPrototype,
  projectCustomField: renderProjectField,
  bundleRefs: renderBundleRefs,
  bundle: renderBundle,
} satisfies Partial<Record<XmlRendererName, CustomRenderer>>;
