// Whether AWS's SAM translator can run here: tests that need it skip, saying why, on a machine without it.
import { findSamPython } from '../../template/transforms/samPython.js';

export interface SamGate {
  skip: boolean;
  title: string;
}

/** A python3 on PATH (or CFN_LOCAL_SAM_PYTHON) that can import samtranslator, or a skip with the reason. */
export async function samGate(what: string): Promise<SamGate> {
  const python = await findSamPython(process.env.CFN_LOCAL_SAM_PYTHON);
  if (python) return { skip: false, title: `${what} (${python})` };
  const reason = 'no python3 that can import samtranslator (pip install aws-sam-translator)';
  console.warn(`[cfn-local] skipping ${what}: ${reason}`);
  return { skip: true, title: `${what} — SKIPPED: ${reason}` };
}
