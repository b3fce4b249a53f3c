import type { PageData } from '../../view-data.js';
import { startStatic } from './static-page.js';
import { startViewer } from './viewer.js';

// The one script of every page (bundled into an IIFE by scripts/build-client.mjs): the data is read from its JSON
// element, never evaluated.
const data = JSON.parse(document.getElementById('turnkit-data')!.textContent!) as PageData;
if (data.mode === 'static') startStatic(data);
else startViewer(data);
