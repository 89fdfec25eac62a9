import type { Suggestion } from '@trackline/client';
import { type KeyboardEvent, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Markup } from '../lib/markup';
import { applySuggestion, segmentsOf } from '../lib/segments';

export type AssistRange = { start: number; end: number; style: string };
export type AssistAnswer = { ranges: AssistRange[]; items: Suggestion[] };

type Props = {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Underline/highlight ranges and completions for the text with the caret at `caret`. */
  assist(text: string, caret: number): Promise<AssistAnswer>;
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
 * and a late answer for an older text is dropped.
 */
export function AssistInput(props: Props) {
  const { value, onChange, assist } = props;
  const id = useId();
  const listId = `${id}-list`;
  const input = useRef<HTMLInputElement>(null);
  const mirror = useRef<HTMLDivElement>(null);
  const sequence = useRef(0);
  const pendingCaret = useRef<number | null>(null);
  const [answer, setAnswer] = useState<AssistAnswer & { text: string }>({ ranges: [], items: [], text: '' });
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [focused, setFocused] = useState(false);

  const ask = useCallback(
    (text: string, caret: number, openList = true) => {
      const mine = ++sequence.current;
      assist(text, caret).then(
        (result) => {
          if (mine !== sequence.current) return;
          setAnswer({ ...result, text });
          setActive(-1);
          setOpen(openList && result.items.length > 0);
        },
        () => {
          if (mine === sequence.current) setAnswer({ ranges: [], items: [], text });
        },
      );
    },
    [assist],
  );

  // The caret goes where a completion says, after React has rendered its text.
  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (caret !== null && input.current) {
      input.current.setSelectionRange(caret, caret);
      pendingCaret.current = null;
    }
    if (mirror.current && input.current) mirror.current.scrollLeft = input.current.scrollLeft;
  });

  // A value set from outside (a saved search clicked, a reset) is read again.
  const lastAsked = useRef<string | null>(null);
  useEffect(() => {
    if (lastAsked.current === value) return;
    lastAsked.current = value;
    // Highlighted at once; the list opens when the person types, focuses the field or asks (Ctrl+Space).
    ask(value, input.current?.selectionStart ?? value.length, false);
  }, [value, ask]);

  const change = (text: string, caret: number) => {
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
      ask(value, event.currentTarget.selectionStart ?? value.length);
      return;
    }
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
        setOpen(false);
        props.onEnter();
      }
    } else if (event.key === 'Tab' && open && count > 0 && !event.shiftKey) {
      event.preventDefault();
      complete(Math.max(active, 0));
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  // Moving the caret (arrows, Home/End, a click) asks for the completions at the new place.
  const caretMoved = () => {
    const caret = input.current?.selectionStart ?? value.length;
    ask(value, caret);
  };

  const segments = segmentsOf(value, answer.text === value ? answer.ranges : []);
  const shown = open && focused && answer.text === value && answer.items.length > 0;
  const activeId = shown && active >= 0 ? `${listId}-${active}` : undefined;

  return (
    <div className={`assist ${props.className ?? ''}`}>
      <label htmlFor={id} className={props.hideLabel ? 'visually-hidden' : 'assist-label'}>
        {props.label}
      </label>
      <div className="assist-field">
        <div className="assist-mirror" ref={mirror} aria-hidden="true">
          {segments.map((s) => (
            <span key={s.start} className={s.style ? `hl hl-${s.style}` : undefined}>
              {s.text}
            </span>
          ))}
        </div>
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
            setFocused(true);
            ask(value, e.currentTarget.selectionStart ?? value.length);
          }}
          onBlur={() => {
            setFocused(false);
            setOpen(false);
          }}
        />
      </div>
      <div
        className="assist-list"
        id={listId}
        role="listbox"
        aria-label={`${props.label}: completions`}
        hidden={!shown}
        data-for={answer.text}
      >
        {shown &&
          answer.items.map((item, index) => (
            <div
              key={`${item.o}|${item.d}|${item.cs}`}
              id={`${listId}-${index}`}
              role="option"
              // Options are pointed at (aria-activedescendant), never focused themselves.
              tabIndex={-1}
              aria-selected={index === active}
              className={index === active ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                complete(index);
              }}
              onMouseEnter={() => setActive(index)}
            >
              <span className="assist-option">
                {item.o.slice(0, item.ms)}
                <mark>{item.o.slice(item.ms, item.me)}</mark>
                {item.o.slice(item.me)}
              </span>
              <span className="assist-description">
                <Markup html={item.hd} />
              </span>
            </div>
          ))}
      </div>
      <span className="visually-hidden" role="status" aria-live="polite">
        {shown ? `${answer.items.length} completions; arrows to choose, Tab to complete` : ''}
      </span>
    </div>
  );
}
