import { Dialog } from './Dialog';

/** Every shortcut of the console, by where it works (docs/console.md lists the same). */
export const SHORTCUTS: { where: string; keys: { keys: string[]; what: string }[] }[] = [
  {
    where: 'Anywhere (outside a text field)',
    keys: [
      { keys: ['?'], what: 'these shortcuts' },
      {
        keys: ['Ctrl+K', 'Ctrl+Alt+J'],
        what: 'command box (for the selection, the list’s query, or the issue shown)',
      },
    ],
  },
  {
    where: 'Issue list',
    keys: [
      { keys: ['/'], what: 'search' },
      { keys: ['j', '↓'], what: 'next issue' },
      { keys: ['k', '↑'], what: 'previous issue' },
      { keys: ['x', 'Space'], what: 'select or unselect the issue' },
      { keys: ['Enter'], what: 'open the issue' },
      { keys: [']'], what: 'next page' },
      { keys: ['['], what: 'previous page' },
    ],
  },
  {
    where: 'Search box and command box',
    keys: [
      { keys: ['↓', '↑'], what: 'choose a completion' },
      { keys: ['Tab'], what: 'complete with the chosen (or first) completion' },
      { keys: ['Enter'], what: 'complete with the highlighted completion; with none, search (or apply)' },
      { keys: ['Ctrl+Space'], what: 'ask for completions again' },
      { keys: ['Escape'], what: 'close the completions, then the dialog' },
      { keys: ['Ctrl+Enter'], what: 'apply the command' },
    ],
  },
  {
    where: 'Issue page',
    keys: [{ keys: ['Ctrl+K'], what: 'command box for this issue' }],
  },
];

/** The `?` dialog: every shortcut, as a table a screen reader reads row by row. */
export function ShortcutsHelp({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <div className="shortcuts">
        {SHORTCUTS.map((group) => (
          <table key={group.where} className="table">
            <caption>{group.where}</caption>
            <tbody>
              {group.keys.map((k) => (
                <tr key={k.what}>
                  <th scope="row">
                    {k.keys.map((key, i) => (
                      <span key={key}>
                        {i > 0 && ' or '}
                        <kbd>{key}</kbd>
                      </span>
                    ))}
                  </th>
                  <td>{k.what}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
        <div className="actions">
          <button type="button" onClick={onClose} data-autofocus>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}
