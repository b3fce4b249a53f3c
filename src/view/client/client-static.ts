/** The page script's entry for a static report file: every run embedded, rendered once. */
export const CLIENT_STATIC = String.raw`
function startStatic(data) {
  var root = document.getElementById('app');
  data.runs.forEach(function (run) {
    var box = h('div', { class: 'run' });
    root.appendChild(box);
    renderReport(run, box);
    renderReps(run, box);
  });
  document.body.setAttribute('data-ready', 'true');
}
`;
