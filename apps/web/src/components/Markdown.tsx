import { type KeyboardEvent, memo, useEffect, useId, useMemo, useState } from 'react';

type Render = (text: string) => string;

/**
 * The Markdown renderer (markdown-it and DOMPurify, a third of the console's script) is its own
 * file, loaded when a page first shows Markdown or when the list is idle: the first screen of the
 * list does not wait for it.
 */
let render: Render | null = null;
let loading: Promise<Render> | null = null;
export function loadMarkdown(): Promise<Render> {
  loading ??= import('../lib/markdown').then((m) => {
    render = m.renderMarkdown;
    return m.renderMarkdown;
  });
  return loading;
}

function useRender(): Render | null {
  const [loaded, setLoaded] = useState<Render | null>(() => render);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void loadMarkdown().then((r) => live && setLoaded(() => r));
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}

/** A description or comment rendered from Markdown (sanitised: lib/markdown.ts); as typed until the renderer is loaded. */
export const MarkdownText = memo(function MarkdownText({
  text,
  className,
}: {
  text: string;
  className?: string;
}) {
  const renderer = useRender();
  const html = useMemo(() => (renderer ? renderer(text) : null), [renderer, text]);
  if (html === null) return <div className={`markdown markdown-plain ${className ?? ''}`}>{text}</div>;
  // Safe as inner HTML: markdown-it without raw HTML, then DOMPurify with a short list of tags (lib/markdown.ts)
  return <div className={`markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * A text area for Markdown with Write and Preview tabs (the ARIA tabs pattern: arrows move
 * between the tabs). The preview is what the issue page will show.
 */
export function MarkdownEditor(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  rows?: number;
  hideLabel?: boolean;
  autoFocus?: boolean;
}) {
  const id = useId();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const keyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = tab === 'write' ? 'preview' : 'write';
    setTab(next);
    document.getElementById(`${id}-${next}-tab`)?.focus();
  };
  const tabProps = (name: 'write' | 'preview') => ({
    id: `${id}-${name}-tab`,
    type: 'button' as const,
    role: 'tab',
    'aria-selected': tab === name,
    'aria-controls': `${id}-${name}`,
    tabIndex: tab === name ? 0 : -1,
    className: tab === name ? 'md-tab active' : 'md-tab',
    onClick: () => setTab(name),
    onKeyDown: keyDown,
  });
  return (
    <div className="field md-editor">
      <span id={`${id}-label`} className={props.hideLabel ? 'visually-hidden' : undefined}>
        {props.label}
      </span>
      <div role="tablist" aria-label="Write or preview" className="md-tabs">
        <button {...tabProps('write')}>Write</button>
        <button {...tabProps('preview')}>Preview</button>
      </div>
      <div id={`${id}-write`} role="tabpanel" aria-labelledby={`${id}-write-tab`} hidden={tab !== 'write'}>
        <textarea
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-hint`}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          rows={props.rows ?? 4}
          // biome-ignore lint/a11y/noAutofocus: editing starts here
          autoFocus={props.autoFocus}
          data-autofocus={props.autoFocus ? '' : undefined}
        />
        <span id={`${id}-hint`} className="muted small">
          Markdown: **bold**, _italic_, `code`, lists, [links](https://…)
        </span>
      </div>
      <div
        id={`${id}-preview`}
        role="tabpanel"
        aria-labelledby={`${id}-preview-tab`}
        hidden={tab !== 'preview'}
        className="md-preview"
      >
        {props.value.trim() ? (
          <MarkdownText text={props.value} />
        ) : (
          <p className="muted">Nothing to preview.</p>
        )}
      </div>
    </div>
  );
}
