// The ordered list of schema migrations; storage/db.ts applies those above the stored user_version.
import { sql as m001 } from './m001_initial.js';
import { sql as m002 } from './m002_stack_paging.js';
import { sql as m003 } from './m003_world_names.js';
import { sql as m004 } from './m004_unread_indexes.js';
import { sql as m005 } from './m005_events_by_stack_key.js';
import { sql as m006 } from './m006_stacks_in_progress.js';
import { sql as m007 } from './m007_s3_objects.js';
import { sql as m008 } from './m008_transform_outputs.js';
import { sql as m009 } from './m009_waits.js';
import { sql as m010 } from './m010_operation_events.js';
import { sql as m011 } from './m011_drift.js';
import { sql as m012 } from './m012_iac_generator.js';
import { sql as m013 } from './m013_stack_sets.js';
import { sql as m014 } from './m014_stack_refactors.js';
import { sql as m015 } from './m015_registry.js';
import { sql as m016 } from './m016_hook_results.js';
import { sql as m017 } from './m017_stack_aliases.js';

export const MIGRATIONS: readonly string[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
];
