import { api, errorText, type ViewData } from './api.js';
import { h } from './dom.js';

/** The viewer's page state: its data, the poll timer, and the version of the run shown. */
export const VIEW: { data: ViewData; poll: number | null; version: string | null } = {
  data: undefined as unknown as ViewData,
  poll: null,
  version: null,
};

/** Marks the page drawn: the tests (and a reader's tools) wait for data-ready. */
export function ready(view: string): void {
  document.body.setAttribute('data-view', view);
  document.body.setAttribute('data-ready', 'true');
}

/** Stops polling the run shown. */
export function stopPolling(): void {
  if (VIEW.poll) window.clearInterval(VIEW.poll);
  VIEW.poll = null;
}

/** Every few seconds: has the run changed (a rep added by a running turnkit run, another file's marks)? */
export function pollRun(id: number, onChange: () => void): void {
  stopPolling();
  VIEW.poll = window.setInterval(() => {
    api<{ version: string }>(VIEW.data, `/api/version?run=${id}`)
      .then((body) => {
        if (VIEW.version !== null && body.version !== VIEW.version) onChange();
      })
      .catch(() => {});
  }, 1500);
}

/** The link back to the list of runs. */
export function nav(root: HTMLElement): void {
  root.appendChild(h('nav', null, [h('a', { href: '#list', text: 'all runs' })]));
}

/** What a view that could not be drawn shows: the server's error. */
export function failed(box: HTMLElement): (error: unknown) => void {
  return (error) => {
    box.appendChild(h('p', { class: 'warning', text: errorText(error) }));
    ready('error');
  };
}
