// One rule for every reader of a run directory: the viewer's file route uses the pipeline's own.
export { fileInRun } from '../../run-dir/run-file.js';
