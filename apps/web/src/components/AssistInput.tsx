import type { Suggestion } from '@trackline/client';
import {
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { Markup } from '../lib/markup';
import { applySuggestion, segmentsOf } from '../lib/segments';

export type AssistRange = { start: number; end: number; style: string };
export type AssistAnswer = { ranges: AssistRange[]; items: Suggestion[] };

type Props = {
  label: string;
  value: string;
  onChange(value: string): void;
  /**
   * Underline/highlight ranges and completions for the text with the caret at `caret`. `signal`
   * is aborted when a newer text is asked for (or the field goes away): the call may stop there.
   */
  assist(text: string, caret: number, signal: AbortSignal): Promise<AssistAnswer>;
  /** Enter while no completion is chosen. */
  onEnter?(): void;
  placeholder?: string;
  autoFocus?: boolean;
  /** Ids of elements describing the field (hints, previews). */
  describedBy?: string;
  className?: string;
  /** Shown to screen readers only when true (a visible heading names the field). */
  hideLabel?: boolean;
};

/**
 * A one-line input whose text is coloured and underlined as the server reads it, with a list of
 * completions: the search box and the command box. ARIA combobox (list autocomplete): arrows
 * move in the list, Enter or Tab completes with the chosen item (Tab with the first when none is
 * chosen), Escape closes the list, Ctrl+Space asks again. The coloured text is a mirror behind
 * a transparent input (same metrics, scrolled with it); every answer is for one text and caret
 * and a late answer for an older text is dropped. Each key asks at once (no debounce); asking
 * again aborts the call still on its way. Rendering is kept small for the typing path: the field
 * re-renders only for its own props (memo), the mirror and the list are components of their own,
 * and nothing reads the layout while React commits (no forced layout per key).
 */
export const AssistInput = memo(function AssistInput(props: Props) {
  const { value, onChange, assist } = props;
  const id = useId();
  const listId = `${id}-list`;
  const input = useRef<HTMLInputElement>(null);
  const mirror = useRef<HTMLDivElement>(null);
  const sequence = useRef(0);
  const inFlight = useRef<AbortController | null>(null);
  const lastAsked = useRef<string | null>(null);
  const pendingCaret = useRef<number | null>(null);
  // After the list was closed on purpose (Enter sent the text, Escape), answers still on their way
  // do not open it again: only a change of the text, the focus or Ctrl+Space does.
  const quiet = useRef(false);
  const [answer, setAnswer] = useState<AssistAnswer & { text: string }>(NO_ANSWER);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [focused, setFocused] = useState(false);

  const ask = useCallback(
    (text: string, caret: number, openList = true) => {
      const mine = ++sequence.current;
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      assist(text, caret, controller.signal).then(
        (result) => {
          if (mine !== sequence.current) return;
          inFlight.current = null;
          setAnswer({ ...result, text });
          setActive(defaultActive(text, result.items));
          setOpen(openList && !quiet.current && result.items.length > 0);
        },
        () => {
          if (mine !== sequence.current) return;
          inFlight.current = null;
          setAnswer({ ranges: [], items: [], text });
        },
      );
    },
    [assist],
  );
  // A call still on its way when the field goes away is not waited for (and, mounted again, as
  // React's strict mode does in development, the field asks again).
  useEffect(
    () => () => {
      inFlight.current?.abort();
      lastAsked.current = null;
    },
    [],
  );

  // The caret goes where a completion says, after React has rendered its text.
  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (caret !== null && input.current) {
      input.current.setSelectionRange(caret, caret);
      pendingCaret.current = null;
    }
  });
  // The mirror follows the input's scrolling (its own scroll events, and a changed text), read
  // before the next frame is drawn rather than while React commits: reading `scrollLeft` there
  // would lay out the page once more on every key.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      if (mirror.current && input.current) mirror.current.scrollLeft = input.current.scrollLeft;
    });
    return () => cancelAnimationFrame(frame);
  }, [value]);

  // A value set from outside (a saved search clicked, a reset) is read again.
  useEffect(() => {
    if (lastAsked.current === value) return;
    lastAsked.current = value;
    // Highlighted at once; the list opens when the person types, focuses the field or asks (Ctrl+Space).
    ask(value, input.current?.selectionStart ?? value.length, false);
  }, [value, ask]);

  const change = (text: string, caret: number) => {
    quiet.current = false;
    lastAsked.current = text;
    onChange(text);
    ask(text, caret);
  };

  const complete = (index: number) => {
    const item = answer.items[index];
    if (!item) return;
    const next = applySuggestion(value, item);
    pendingCaret.current = next.caret;
    setOpen(false);
    change(next.text, next.caret);
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Completions computed for another text (an answer still on its way) are not offered.
    const count = answer.text === value ? answer.items.length : 0;
    if (event.key === ' ' && event.ctrlKey) {
      event.preventDefault();
      quiet.current = false;
      ask(value, event.currentTarget.selectionStart ?? value.length);
      return;
    }
    // Ctrl+Enter belongs to the form around (the command box applies), whatever is highlighted.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) return;
    if (event.key === 'ArrowDown' && count > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % count);
    } else if (event.key === 'ArrowUp' && count > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((a) => (a <= 0 ? count - 1 : a - 1));
    } else if (event.key === 'Enter') {
      if (open && count > 0 && active >= 0) {
        event.preventDefault();
        complete(active);
      } else if (props.onEnter && !event.shiftKey) {
        event.preventDefault();
        quiet.current = true;
        setOpen(false);
        props.onEnter();
      }
    } else if (event.key === 'Tab' && open && count > 0 && !event.shiftKey) {
      event.preventDefault();
      complete(Math.max(active, 0));
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      quiet.current = true;
      setOpen(false);
    }
  };

  // Moving the caret (arrows, Home/End, a click) asks for the completions at the new place.
  const caretMoved = () => {
    const caret = input.current?.selectionStart ?? value.length;
    ask(value, caret);
  };

  const current = answer.text === value;
  const shown = open && focused && current && answer.items.length > 0;
  const activeId = shown && active >= 0 ? `${listId}-${active}` : undefined;

  return (
    <div className={`assist ${props.className ?? ''}`}>
      <label htmlFor={id} className={props.hideLabel ? 'visually-hidden' : 'assist-label'}>
        {props.label}
      </label>
      <div className="assist-field">
        <Mirror ref={mirror} text={value} ranges={current ? answer.ranges : NO_RANGES} />
        <input
          id={id}
          ref={input}
          className="assist-input"
          type="text"
          role="combobox"
          aria-expanded={shown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          aria-describedby={props.describedBy}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          spellCheck={false}
          // biome-ignore lint/a11y/noAutofocus: the dialog's and page's main field, focused on purpose
          autoFocus={props.autoFocus}
          data-autofocus={props.autoFocus ? '' : undefined}
          placeholder={props.placeholder}
          value={value}
          onChange={(e) => change(e.target.value, e.target.selectionStart ?? e.target.value.length)}
          onKeyDown={keyDown}
          onKeyUp={(e) => {
            if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) caretMoved();
          }}
          onClick={caretMoved}
          onScroll={(e) => {
            if (mirror.current) mirror.current.scrollLeft = e.currentTarget.scrollLeft;
          }}
          onFocus={(e) => {
            quiet.current = false;
            setFocused(true);
            ask(value, e.currentTarget.selectionStart ?? value.length);
          }}
          onBlur={() => {
            setFocused(false);
            setOpen(false);
          }}
        />
      </div>
      <Completions
        id={listId}
        label={`${props.label}: completions`}
        text={answer.text}
        items={answer.items}
        shown={shown}
        active={active}
        onChoose={complete}
        onPoint={setActive}
      />
      <span className="visually-hidden" role="status" aria-live="polite">
        {shown ? `${answer.items.length} completions; arrows to choose, Tab to complete` : ''}
      </span>
    </div>
  );
});

/**
 * The completion highlighted when an answer comes: the first, while the word at the caret is
 * typed half (`State: In` → In Progress), so that Enter takes it; none after a finished word or a
 * space, so that Enter sends the text as typed.
 */
function defaultActive(text: string, items: readonly Suggestion[]): number {
  const first = items[0];
  if (!first || first.ce <= first.cs) return -1;
  const typed = text.slice(first.cs, first.ce).replace(/^[#{]+|[}]+$/g, '');
  return typed.toLowerCase() === first.o.toLowerCase() ? -1 : 0;
}

const NO_RANGES: AssistRange[] = [];
const NO_ANSWER = { ranges: NO_RANGES, items: [], text: '' };

/** The text as the server reads it (coloured, underlined), behind the transparent input. */
const Mirror = memo(function Mirror(props: {
  ref: Ref<HTMLDivElement>;
  text: string;
  ranges: readonly AssistRange[];
}) {
  return (
    <div className="assist-mirror" ref={props.ref} aria-hidden="true">
      {segmentsOf(props.text, props.ranges).map((s) => (
        <span key={s.start} className={s.style ? `hl hl-${s.style}` : undefined}>
          {s.text}
        </span>
      ))}
    </div>
  );
});

/**
 * The completion list. Its options stay in the page while it is hidden (a key typed hides the
 * list until the answer for the new text comes): that answer then changes what differs instead
 * of building the list again. `data-for` is the text the completions are for.
 */
const Completions = memo(function Completions(props: {
  id: string;
  label: string;
  text: string;
  items: readonly Suggestion[];
  shown: boolean;
  active: number;
  onChoose(index: number): void;
  onPoint(index: number): void;
}) {
  const { onChoose, onPoint } = props;
  const indexOf = (e: MouseEvent<HTMLElement>) => Number(e.currentTarget.dataset.index);
  const choose = useCallback(
    (e: MouseEvent<HTMLElement>) => {
      e.preventDefault();
      onChoose(indexOf(e));
    },
    [onChoose],
  );
  const point = useCallback((e: MouseEvent<HTMLElement>) => onPoint(indexOf(e)), [onPoint]);
  return (
    <div
      className="assist-list"
      id={props.id}
      role="listbox"
      aria-label={props.label}
      hidden={!props.shown}
      data-for={props.text}
    >
      {props.items.map((item, index) => (
        <div
          key={`${item.o}|${item.d}|${item.cs}`}
          id={`${props.id}-${index}`}
          role="option"
          // Options are pointed at (aria-activedescendant), never focused themselves.
          tabIndex={-1}
          aria-selected={index === props.active}
          className={index === props.active ? 'active' : undefined}
          data-index={index}
          onMouseDown={choose}
          onMouseEnter={point}
        >
          <Option item={item} />
        </div>
      ))}
    </div>
  );
});

/**
 * One completion: the option with the typed part marked, and its description. The same completion
 * in the next answer (a new object) is not rendered again.
 */
const Option = memo(
  function Option({ item }: { item: Suggestion }) {
    return (
      <>
        <span className="assist-option">
          {item.o.slice(0, item.ms)}
          <mark>{item.o.slice(item.ms, item.me)}</mark>
          {item.o.slice(item.me)}
        </span>
        <span className="assist-description">
          <Markup html={item.hd} />
        </span>
      </>
    );
  },
  (a, b) =>
    a.item.o === b.item.o && a.item.hd === b.item.hd && a.item.ms === b.item.ms && a.item.me === b.item.me,
);
