import {
  type Actor,
  createGroup,
  createIssue,
  createProject,
  createSavedSearch,
  type Em,
  executeCommand,
  getProjectCustomField,
  type Orm,
  updateBundleValue,
} from '@trackline/domain';
import { actorFor } from '@trackline/domain/testing';

/** Colour indices of the seeded values (the palette's red, orange, blue, green, teal). */
export const COLOURS: Record<string, Record<string, number>> = {
  Priority: { 'Show-stopper': 8, Critical: 8, Major: 2, Minor: 10 },
  State: { Open: 4, 'In Progress': 7, Fixed: 3 },
};

/**
 * A small tracker: DEMO with `issues` issues (varied states and priorities, a link), OPS with a
 * few, coloured Priority and State values, a group, a saved search and a tag of root's.
 */
export async function seedTracker(orm: Orm, { issues = 60 }: { issues?: number } = {}): Promise<Actor> {
  const em = () => orm.em.fork() as Em;
  const root = await actorFor(orm, 'root');
  await createProject(em(), root, {
    shortName: 'DEMO',
    name: 'Demo project',
    description: 'The console tour',
  });
  await createProject(em(), root, { shortName: 'OPS', name: 'Operations' });
  for (const project of ['DEMO', 'OPS']) {
    for (const [field, values] of Object.entries(COLOURS)) {
      const bundle = (await getProjectCustomField(em(), root, project, field)).bundle as string;
      const type = field === 'State' ? 'stateBundle' : 'bundle';
      for (const [value, colorIndex] of Object.entries(values))
        await updateBundleValue(em(), root, type, bundle, value, { colorIndex });
    }
  }
  await createGroup(em(), root, 'Developers');
  const subjects = [
    'Crash on save',
    'Login form rejects long passwords',
    'Export to CSV misses dates',
    'Slow search on big projects',
    'Typo in settings',
  ];
  const fork = em();
  for (let i = 1; i <= issues; i++) {
    await createIssue(fork, root, {
      project: 'DEMO',
      summary: `${subjects[i % subjects.length]} #${i}`,
      description: `Steps to reproduce ${i}.`,
    });
  }
  for (let i = 1; i <= 3; i++)
    await createIssue(em(), root, { project: 'OPS', summary: `Rotate certificates ${i}` });
  const commands: [string, string][] = [
    ['DEMO-1', 'Priority Critical State Open'],
    ['DEMO-2', 'Priority Major State {In Progress}'],
    ['DEMO-4', 'State Fixed'],
    ['DEMO-5', 'Priority Minor tag regression'],
    ['DEMO-6', 'relates to DEMO-1'],
  ];
  for (const [issue, command] of commands) await executeCommand(em(), root, [issue], command);
  await createSavedSearch(em(), root, { name: 'Open in DEMO', query: 'project: DEMO #Unresolved' });
  return root;
}
