/** Real-data cases (being written). */
import type { RealFiles } from './realFiles';
import type { RealCase } from './realExpect';

export function validationBCases(_f: RealFiles): RealCase[] {
  return [];
}
