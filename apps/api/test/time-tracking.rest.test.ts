import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, userWithRole, xmlElements } from './harness.js';

/*
 * Time tracking over HTTP in the legacy clients' shapes: `POST …/timetracking/workitem` with a
 * `<workItem>` body answers 201 with a Location ending `…/workitem/{id}`; the list is `workItems`
 * > `workItem url`; project settings `settings enabled`; the working time `timesettings
 * hoursADay daysAWeek`.
 */

let server: TestServer;
const as = (user: string, method: string, path: string, body?: string) =>
  server.request(method, path, { user, ...(body ? { body, contentType: 'application/xml' } : {}) });

beforeAll(async () => {
  server = await startTestServer();
  await as('root', 'PUT', '/rest/admin/project/TT?projectName=Time&projectLeadLogin=root');
  await as('root', 'PUT', '/rest/issue?project=TT&summary=one');
  await userWithRole(server.orm, 'tt_dev', 'Developer', 'TT');
});
afterAll(() => server.close());

describe('time tracking over HTTP', () => {
  it('creates a work item from the legacy XML body and lists it', async () => {
    const body =
      '<workItem><date>1400000000000</date><duration>45</duration><description>review</description>' +
      '<worktype><name>Testing</name></worktype></workItem>';
    const res = await as('tt_dev', 'POST', '/rest/issue/TT-1/timetracking/workitem', body);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(/\/rest\/issue\/TT-1\/timetracking\/workitem\/(\d+)$/);
    const list = (await as('tt_dev', 'GET', '/rest/issue/TT-1/timetracking/workitem')).text;
    expect(list).toContain(
      '<date>1400000000000</date><duration>45</duration><description>review</description><worktype><name>Testing</name></worktype><author login="tt_dev"',
    );
    const id = /workitem\/(\d+)"/.exec(list)?.[1];
    expect(
      (await as('tt_dev', 'PUT', `/rest/issue/TT-1/timetracking/workitem/${id}?duration=50`)).status,
    ).toBe(200);
    expect((await as('tt_dev', 'GET', '/rest/issue/TT-1/timetracking/workitem')).text).toContain(
      '<duration>50</duration>',
    );
    expect((await as('tt_dev', 'DELETE', `/rest/issue/TT-1/timetracking/workitem/${id}`)).status).toBe(200);
    expect((await as('tt_dev', 'POST', '/rest/issue/TT-1/timetracking/workitem?duration=0')).status).toBe(
      400,
    );
  });

  it('keeps the project settings and the working time', async () => {
    expect((await as('root', 'GET', '/rest/admin/project/TT/timetracking')).text).toMatch(
      /<settings enabled="false"\/>$/,
    );
    expect((await as('tt_dev', 'PUT', '/rest/admin/project/TT/timetracking?enabled=true')).status).toBe(403);
    const set = await as(
      'root',
      'PUT',
      '/rest/admin/project/TT/timetracking?enabled=true&spentTime=Spent+time',
    );
    expect(set.status).toBe(200);
    expect(set.text).toMatch(/<settings enabled="true"><spentTime name="Spent time"\/><\/settings>$/);
    const time = xmlElements((await as('tt_dev', 'GET', '/rest/admin/timetracking')).text, 'timesettings');
    expect(time).toEqual([{ hoursADay: '8', daysAWeek: '5' }]);
    expect((await as('root', 'PUT', '/rest/admin/timetracking?daysAWeek=6')).status).toBe(200);
    expect(xmlElements((await as('root', 'GET', '/rest/admin/timetracking')).text, 'timesettings')).toEqual([
      { hoursADay: '8', daysAWeek: '6' },
    ]);
    expect(
      // The original's shape: child elements (`<workType><name>Testing</name><id/>…`).
      [
        ...(await as('root', 'GET', '/rest/admin/timetracking/worktype')).text.matchAll(
          /<workType><name>([^<]*)<\/name>/g,
        ),
      ].map((m) => m[1]),
    ).toEqual(['Testing']);
  });
});
