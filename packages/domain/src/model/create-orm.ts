import { type DatabaseConfig, type Orm, openOrm } from '../orm/open-orm.js';
import { ENTITIES } from './entities.js';

/** Opens the ORM on `db` with every entity of the model. */
export function createOrm(db: DatabaseConfig, extra: { debug?: boolean } = {}): Promise<Orm> {
  return openOrm(db, ENTITIES, extra);
}
