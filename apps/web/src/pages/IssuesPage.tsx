import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssueView, Me } from '@trackline/client';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { messageOf, trackline } from '../api';
import { AssistInput } from '../components/AssistInput';
import { CommandBox, type CommandTarget } from '../components/CommandBox';
import { NewIssueDialog, SaveSearchDialog } from '../components/IssueDialogs';
import { IssueRow } from '../components/IssueRow';
import { loadMarkdown } from '../components/Markdown';
import { Sidebar } from '../components/Sidebar';
import { isNetworkError } from '../lib/connection';
import { isPageKey, isTyping, rememberOpened, takeOpened } from '../lib/keys';
import { showNotice } from '../lib/notice';
import { mayIn } from '../lib/permissions';
import { keys, showChangedIssues } from '../lib/queries';
import { Link, navigate, rememberListUrl, useLocation } from '../lib/router';
import { useTitle } from '../lib/title';

export const PAGE_SIZE = 50;

const NO_IDS: ReadonlySet<string> = new Set();
const NO_ISSUES: IssueView[] = [];

/**
 * The project a query is about (`project: DEMO …`), if the caller reads it: where a new issue
 * goes by default. `onlyProject`: the query is that and nothing else (an empty project's list).
 */
function projectInView(query: string, me: Me): { shortName: string; onlyProject: boolean } | null {
  const found = /(?:^|\s)project:\s*\{?([A-Za-z][\w]*)\}?/i.exec(query);
  const name = found?.[1]?.toUpperCase();
  const project = me.projects.find((p) => p.shortName.toUpperCase() === name);
  if (!project || !found) return null;
  return { shortName: project.shortName, onlyProject: query.trim() === found[0].trim() };
}

/** The selected ids that are on the screen (the same set when all are: no new render). */
function onScreen(ids: ReadonlySet<string>, issues: readonly IssueView[]): ReadonlySet<string> {
  if (ids.size === 0) return ids;
  const shown = new Set(issues.map((i) => i.id));
  for (const id of ids) if (!shown.has(id)) return new Set([...ids].filter((i) => shown.has(i)));
  return ids;
}

const listUrl = (query: string, page: number) => {
  const params = new URLSearchParams();
  if (query) params.set('q', query);
  if (page > 0) params.set('page', String(page + 1));
  const search = params.toString();
  return search ? `/?${search}` : '/';
};

/**
 * The issue list: the search box (highlighted and completed as typed), folders with counts, a
 * page of 50 issues with coloured chips, paging, a selection, and the command box applied to the
 * selection or, with none, to every issue the query matches. Keyboard: `/` search, `j`/`k` or
 * arrows move, `x` selects, Enter opens, `[`/`]` page, Ctrl+K (or Ctrl+Alt+J) the command box.
 */
export function IssuesPage({ me }: { me: Me }) {
  const { params } = useLocation();
  const query = params.get('q') ?? '';
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '1', 10) - 1 || 0);
  const client = useQueryClient();
  const [draft, setDraft] = useState(query);
  // The selection and the focused row belong to one query and page: read for another, they are
  // empty and the first row (derived while rendering, not reset by an effect: one render a page).
  const listKey = `${page}\u0000${query}`;
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: listKey,
    ids: NO_IDS,
  });
  const heldIds = selection.key === listKey ? selection.ids : NO_IDS;
  const select = useCallback(
    (update: (ids: ReadonlySet<string>) => ReadonlySet<string>) =>
      setSelection((s) => ({ key: listKey, ids: update(s.key === listKey ? s.ids : NO_IDS) })),
    [listKey],
  );
  const [focusAt, setFocusAt] = useState({ key: listKey, index: 0 });
  const focus = focusAt.key === listKey ? focusAt.index : 0;
  const [command, setCommand] = useState<CommandTarget | null>(null);
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [applied, setApplied] = useState<IssueView[] | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => setDraft(query), [query]);
  useEffect(() => rememberListUrl(listUrl(query, page)), [query, page]);
  useTitle(query ? `${query} — Issues` : 'Issues');
  const inView = projectInView(query, me);

  const pageQuery = (n: number) => ({
    queryKey: keys.issueList(query, n * PAGE_SIZE, PAGE_SIZE),
    queryFn: () => trackline.issues.list.query({ filter: query, after: n * PAGE_SIZE, max: PAGE_SIZE }),
  });
  const list = useQuery({ ...pageQuery(page), placeholderData: keepPreviousData });
  // Not loaded: no page for this query (another query's page kept on screen would mislead).
  const failed = list.error !== null && (list.data === undefined || list.isPlaceholderData);
  const issues = (!failed && list.data?.issues) || NO_ISSUES;
  // The selection holds only issues on the screen: one that leaves the list (a command moved it
  // out of the query, someone deleted it) leaves the selection, so no later command reaches it.
  const selected = onScreen(heldIds, issues);
  // The next page is fetched while this one is read, and once the person pages, the one after it
  // too: `]`, even pressed in quick succession, then shows pages from memory. Fresh pages (already
  // fetched) are not asked for again, so paging on costs one call a page, one page ahead.
  const total = failed ? 0 : (list.data?.total ?? 0);
  const ready = list.data !== undefined && !list.isPlaceholderData;
  useEffect(() => {
    if (!ready) return;
    const ahead = page === 0 ? 1 : 2;
    for (let n = page + 1; n <= page + ahead && n * PAGE_SIZE < total; n++)
      void client.prefetchQuery(pageQuery(n));
  }, [ready, total, page, query, client]);
  // Paging from the keyboard keeps the keyboard in the list: the new page's first row gets the focus.
  const focusFirstRow = useRef(false);
  // For the browser benchmark (apps/web/bench): when a page of issues is on the screen.
  useEffect(() => {
    if (list.data && !list.isPlaceholderData) {
      if (focusFirstRow.current) {
        focusFirstRow.current = false;
        listRef.current?.querySelector<HTMLAnchorElement>('.issue-link')?.focus();
      }
      // Back from an issue: its row has the focus again.
      const opened = takeOpened();
      const index = opened === null ? -1 : list.data.issues.findIndex((i) => i.id === opened);
      if (index >= 0) {
        setFocusAt({ key: listKey, index });
        listRef.current?.querySelectorAll<HTMLAnchorElement>('.issue-link')[index]?.focus();
      }
      performance.mark('trackline:issues-rendered', {
        detail: { query, after: page * PAGE_SIZE, count: list.data.issues.length },
      });
    }
  }, [list.data, list.isPlaceholderData, query, page]);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // Once the list is on the screen and the page is idle, the Markdown renderer of the issue page.
  useEffect(() => {
    if (!ready) return;
    const idle = window.requestIdleCallback?.(() => void loadMarkdown(), { timeout: 3_000 });
    return () => {
      if (idle !== undefined) window.cancelIdleCallback?.(idle);
    };
  }, [ready]);
  // A page past the end (`?page=999`, or the last page emptied by a command): the last page.
  useEffect(() => {
    if (ready && total > 0 && page >= pages) navigate(listUrl(query, pages - 1), { replace: true });
  }, [ready, total, page, pages, query]);

  const search = useCallback((text: string) => navigate(listUrl(text.trim(), 0)), []);
  const searchDraft = useCallback(() => search(draft), [search, draft]);
  const [drawer, setDrawer] = useState(false);
  const closeDrawer = useCallback(() => setDrawer(false), []);
  const pickFolder = useCallback(
    (text: string) => {
      setDrawer(false);
      search(text);
    },
    [search],
  );
  const goToPage = (n: number) => {
    if (n >= 0 && n < pages) navigate(listUrl(query, n));
  };
  const assist = useCallback(async (text: string, caret: number, signal: AbortSignal) => {
    const answer = await trackline.issues.searchIntellisense.query(
      { filter: text, caret, optionsLimit: 12 },
      { signal },
    );
    return { ranges: answer.underline.ranges, items: answer.suggest.items };
  }, []);

  const toggle = useCallback(
    (id: string) =>
      select((ids) => {
        const next = new Set(ids);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [select],
  );
  const openCommand = () =>
    setCommand(selected.size > 0 ? { kind: 'issues', ids: [...selected] } : { kind: 'query', query, total });

  const openIssue = (id: string) => {
    rememberOpened(id);
    navigate(`/issue/${id}`);
  };

  const focusRow = (index: number) => {
    const bounded = Math.max(0, Math.min(index, issues.length - 1));
    setFocusAt({ key: listKey, index: bounded });
    listRef.current?.querySelectorAll<HTMLAnchorElement>('.issue-link')[bounded]?.focus();
  };

  // The page's shortcuts, wherever the focus is outside a text field and no dialog is open.
  const keyDown = (event: globalThis.KeyboardEvent) => {
    if (event.defaultPrevented || !isPageKey(event)) return;
    const commandKey =
      (event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey)) ||
      (event.key.toLowerCase() === 'j' && event.ctrlKey && event.altKey);
    if (commandKey) {
      event.preventDefault();
      openCommand();
      return;
    }
    if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    const current = issues[focus];
    // Enter and space keep their meaning on a button or a link outside the list.
    const onPage = event.target === document.body || listRef.current?.contains(event.target as Node) === true;
    switch (event.key) {
      case '/':
        event.preventDefault();
        document.querySelector<HTMLInputElement>('.search-box input')?.focus();
        break;
      case 'j':
      case 'ArrowDown':
        if (event.key === 'ArrowDown' && !onPage) return;
        event.preventDefault();
        focusRow(focus + 1);
        break;
      case 'k':
      case 'ArrowUp':
        if (event.key === 'ArrowUp' && !onPage) return;
        event.preventDefault();
        focusRow(focus - 1);
        break;
      case 'x':
      case ' ':
        if (current && (event.key === 'x' || onPage)) {
          event.preventDefault();
          toggle(current.id);
        }
        break;
      case 'Enter':
        if (current && event.target === document.body) {
          event.preventDefault();
          openIssue(current.id);
        }
        break;
      case ']':
        focusFirstRow.current = true;
        goToPage(page + 1);
        break;
      case '[':
        focusFirstRow.current = true;
        goToPage(page - 1);
        break;
    }
  };
  const keyHandler = useRef(keyDown);
  keyHandler.current = keyDown;
  useEffect(() => {
    const listener = (event: globalThis.KeyboardEvent) => keyHandler.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const first = total === 0 ? 0 : page * PAGE_SIZE + 1;
  const last = Math.min(total, (page + 1) * PAGE_SIZE);
  const mayCreate = me.projects.some((p) => p.permissions.includes('CREATE_ISSUE'));

  return (
    <div className="issues-page">
      <Sidebar current={query} onPick={pickFolder} open={drawer} onClose={closeDrawer} />
      {drawer && (
        // A click beside the drawer closes it; the keyboard has Escape and the Close button.
        <div className="drawer-backdrop" aria-hidden="true" onClick={closeDrawer} />
      )}
      <section className="issues-main" aria-labelledby="issues-title">
        <h1 id="issues-title" className="visually-hidden">
          Issues
        </h1>
        <button
          type="button"
          className="drawer-toggle"
          aria-expanded={drawer}
          aria-controls="folders"
          onClick={() => setDrawer(!drawer)}
        >
          Folders
        </button>
        <search>
          <form
            className="search-bar"
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              searchDraft();
            }}
          >
            <AssistInput
              label="Search issues"
              hideLabel
              value={draft}
              onChange={setDraft}
              assist={assist}
              onEnter={searchDraft}
              placeholder="project: DEMO #Unresolved for: me  (press / to search)"
              className="search-box"
            />
            <button type="submit">Search</button>
            <button type="button" onClick={() => setSaving(true)} disabled={!query}>
              Save search
            </button>
          </form>
        </search>
        <div className="toolbar">
          <p className="count" role="status" aria-live="polite">
            {failed
              ? 'Issues not loaded'
              : list.isPending
                ? 'Loading…'
                : total === 0
                  ? 'No issues'
                  : `${first}–${last} of ${total} issue${total === 1 ? '' : 's'}`}
            {selected.size > 0 && ` · ${selected.size} selected`}
          </p>
          <button
            type="button"
            onClick={() => select(() => new Set(issues.map((i) => i.id)))}
            disabled={issues.length === 0}
          >
            Select page
          </button>
          <button type="button" onClick={() => select(() => NO_IDS)} disabled={selected.size === 0}>
            Clear selection
          </button>
          <button
            type="button"
            className="primary"
            onClick={openCommand}
            disabled={total === 0 || failed}
            title="Ctrl+K"
          >
            {selected.size > 0 ? `Command for ${selected.size} selected…` : `Command for all ${total}…`}
          </button>
          {mayCreate && (
            <button type="button" onClick={() => setCreating(true)}>
              New issue
            </button>
          )}
        </div>
        {applied && (
          <div className="banner" role="status">
            Applied to{' '}
            {applied.map((issue, i) => (
              <span key={issue.id}>
                {i > 0 && ', '}
                <Link href={`/issue/${issue.id}`}>{issue.id}</Link>
              </span>
            ))}
            .{' '}
            <button type="button" className="link-button" onClick={() => setApplied(null)}>
              Dismiss
            </button>
          </div>
        )}
        {list.error && draft.trim() === query && !isNetworkError(list.error) && (
          <p className="error" role="alert">
            {messageOf(list.error)}
          </p>
        )}
        {ready && total === 0 && !list.error && (
          <div className="empty-state">
            {inView?.onlyProject ? (
              <p>No issues in {inView.shortName} yet.</p>
            ) : (
              <p>No issues match {query ? 'this query' : 'yet'}.</p>
            )}
            {inView && mayIn(me, inView.shortName, 'CREATE_ISSUE') && (
              <button type="button" className="primary" onClick={() => setCreating(true)}>
                {inView.onlyProject ? 'Create the first issue' : `New issue in ${inView.shortName}`}
              </button>
            )}
          </div>
        )}
        <ol
          className="issue-list"
          ref={listRef}
          aria-label="Issues"
          aria-busy={list.isFetching}
          onFocus={(e) => {
            // A row focused with the mouse or Tab is where j and k go on from.
            const row = (e.target as Element).closest('.issue-row');
            const index = row ? [...(listRef.current?.children ?? [])].indexOf(row) : -1;
            if (index >= 0 && index !== focus) setFocusAt({ key: listKey, index });
          }}
        >
          {issues.map((issue, index) => (
            // Keyed by place: a new page updates the 50 rows in place instead of replacing them.
            <IssueRow
              key={index}
              issue={issue}
              selected={selected.has(issue.id)}
              onToggle={toggle}
              focused={index === focus}
            />
          ))}
        </ol>
        <nav className="pager" aria-label="Pages">
          <button type="button" onClick={() => goToPage(page - 1)} disabled={page === 0}>
            ← Previous
          </button>
          <span>
            Page {page + 1} of {pages}
          </span>
          <button type="button" onClick={() => goToPage(page + 1)} disabled={page + 1 >= pages}>
            Next →
          </button>
        </nav>
        <p className="muted small keys-hint">
          Keys: <kbd>/</kbd> search · <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>x</kbd> select · <kbd>Enter</kbd>{' '}
          open · <kbd>[</kbd>/<kbd>]</kbd> page · <kbd>Ctrl+K</kbd> command · <kbd>?</kbd> all shortcuts
        </p>
      </section>
      {command && (
        <CommandBox
          target={command}
          me={me}
          onClose={() => setCommand(null)}
          onApplied={(changed, deleted) => {
            showChangedIssues(client, changed, deleted);
            setApplied(changed.length > 0 ? changed : null);
            if (deleted.length > 0) showNotice(`Deleted ${deleted.join(', ')}.`);
          }}
        />
      )}
      {creating && <NewIssueDialog me={me} project={inView?.shortName} onClose={() => setCreating(false)} />}
      {saving && <SaveSearchDialog query={query} onClose={() => setSaving(false)} />}
    </div>
  );
}
