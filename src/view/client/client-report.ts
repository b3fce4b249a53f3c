/**
 * The page script's report: per tag an SVG chart (rate bar, Wilson interval, target line, text labels, a title and
 * a description for screen readers) followed by the table it stands for; base pairs, what the target demands,
 * agreements with their confusion matrices and disagreements, a comparison, warnings, constructed fixtures' diffs.
 */
export const CLIENT_REPORT = String.raw`
function rateChart(fixtures, target, id) {
  var rowH = 30, labelW = 230, barW = 330, top = 34, width = labelW + barW + 190;
  var height = top + rowH * fixtures.length + 24;
  var x = function (v) { return labelW + v * barW; };
  var title = 'Pass rate per fixture with its Wilson 95% interval; target ' + target;
  var desc = fixtures.map(function (f) {
    return f.fixture + ': rate ' + rateText(f) + ', interval ' + intervalText(f) + ', ' + f.verdict;
  }).join('; ');
  var svg = s('svg', { role: 'img', viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, 'aria-labelledby': id + '-t ' + id + '-d', class: 'chart' }, [
    s('title', { id: id + '-t', text: title }),
    s('desc', { id: id + '-d', text: desc }),
  ]);
  [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
    svg.appendChild(s('line', { x1: x(v), x2: x(v), y1: top - 6, y2: height - 20, class: 'grid' }));
    svg.appendChild(s('text', { x: x(v), y: height - 6, 'text-anchor': 'middle', class: 'tick', text: String(v) }));
  });
  fixtures.forEach(function (f, i) {
    var y = top + i * rowH;
    // About 7 px a character at 13 px: 28 fit in the label column.
    svg.appendChild(chartLabel({ x: labelW - 8, y: y + 19, 'text-anchor': 'end', class: 'label' }, f.fixture, 28));
    svg.appendChild(s('rect', { x: x(0), y: y + 6, width: barW, height: 18, class: 'track' }));
    if (f.rate !== null) svg.appendChild(s('rect', { x: x(0), y: y + 6, width: Math.max(1, f.rate * barW), height: 18, class: 'bar ' + f.verdict }));
    if (f.wilson) {
      svg.appendChild(s('line', { x1: x(f.wilson.low), x2: x(f.wilson.high), y1: y + 15, y2: y + 15, class: 'whisker' }));
      svg.appendChild(s('line', { x1: x(f.wilson.low), x2: x(f.wilson.low), y1: y + 9, y2: y + 21, class: 'whisker' }));
      svg.appendChild(s('line', { x1: x(f.wilson.high), x2: x(f.wilson.high), y1: y + 9, y2: y + 21, class: 'whisker' }));
    }
    svg.appendChild(s('text', { x: x(1) + 8, y: y + 19, class: 'value', text: (f.rate === null ? 'no rate' : f.rate.toFixed(2)) + ' ' + f.verdict + (f.uncertain ? ' (uncertain)' : '') }));
  });
  svg.appendChild(s('line', { x1: x(target), x2: x(target), y1: top - 10, y2: height - 20, class: 'target' }));
  svg.appendChild(s('text', { x: x(target), y: top - 14, 'text-anchor': 'middle', class: 'target-label', text: 'target ' + target }));
  return h('figure', null, [svg, h('figcaption', { text: title + '. The table below holds the same numbers.' })]);
}

var FIXTURE_HEADER = ['fixture', 'pass', 'fail', 'na', 'error', 'blank', 'rate', '95% interval', 'verdict', 'passes needed/fails ok', 'SUT ms p50/p95'];

function fixtureCells(f) {
  return [f.fixture, { k: 'pass', text: f.pass }, { k: 'fail', text: f.fail }, { k: 'na', text: f.na }, { k: 'error', text: f.error },
    { k: 'blank', text: f.blank }, { k: 'rate', text: rateText(f) }, { k: 'interval', text: intervalText(f) },
    { k: 'verdict', text: f.verdict + (f.uncertain ? ' (uncertain)' : '') }, { k: 'needed', text: f.passesNeeded + '/' + f.failsTolerated },
    { k: 'latency', text: latencyText(f) }];
}

function totalCells(t) {
  var verdicts = [t.met + ' met', t.missed + ' missed'].concat(t.pending > 0 ? [t.pending + ' pending'] : []).join(', ');
  return ['total (' + t.fixtures + ' fixture' + (t.fixtures === 1 ? '' : 's') + ')', { k: 'pass', text: t.pass }, { k: 'fail', text: t.fail },
    { k: 'na', text: t.na }, { k: 'error', text: t.error }, { k: 'blank', text: t.blank }, { k: 'rate', text: rateText(t) },
    { k: 'interval', text: intervalText(t) }, { k: 'verdict', text: verdicts }, '', ''];
}

function renderReport(run, root) {
  var r = run.report;
  var status = r.complete ? 'complete' : r.status + ', ' + r.fixtures.reduce(function (n, f) { return n + f.notRun; }, 0) + ' rep(s) not run';
  root.appendChild(h('header', null, [
    h('h1', null, [h('span', { text: r.question.id }), ': ', h('span', { text: r.question.text })]),
    h('p', { class: 'meta', id: 'run-meta', text: 'Run ' + r.dir + ' (' + status + (r.shard ? ', shard ' + r.shard.index + '/' + r.shard.count : '') + '); marks from ' + r.marksFile + '; rubric version ' + r.rubricVersion + '; target ' + r.target + ', ' + r.reps + ' reps per fixture.' }),
  ]));
  // The rubric the reps were marked by, rendered from its Markdown; closed, as it is read once.
  if (run.rubricDoc) root.appendChild(h('details', { id: 'report-rubric' }, [h('summary', { text: 'rubric (version ' + r.rubricVersion + ')' }), markdownBlock(run.rubricDoc)]));
  r.tags.forEach(function (totals) {
    var members = r.fixtures.filter(function (f) { return (f.tag || 'untagged') === totals.tag; });
    var section = h('section', { class: 'tag', 'data-tag': totals.tag }, [h('h2', { text: totals.tag + ' fixtures' })]);
    section.appendChild(rateChart(members, r.target, 'chart-' + totals.tag));
    var rows = members.map(function (f) { return { attrs: { 'data-fixture': f.fixture }, cells: fixtureCells(f) }; });
    rows.push({ attrs: { 'data-total': totals.tag }, cells: totalCells(totals) });
    section.appendChild(table(totals.tag + ' fixtures: counts, rate, interval, verdict, latency', FIXTURE_HEADER, rows, { class: 'fixtures' }));
    root.appendChild(section);
  });
  if (r.marksSources) {
    var sourceFiles = r.marksSources.files.map(function (f) { return f.split(/[\\/]/).pop(); });
    root.appendChild(h('section', { id: 'marks-sources' }, [h('h2', { text: 'Marks by source' }),
      table(null, ['fixture'].concat(sourceFiles), r.marksSources.fixtures.map(function (e) {
        return { attrs: { 'data-fixture': e.fixture }, cells: [e.fixture].concat(sourceFiles.map(function (file) {
          var found = e.sources.filter(function (s) { return s.file === file; })[0];
          return String(found ? found.marks : 0);
        })) };
      }))]));
  }
  if (r.pairs.length > 0) {
    var rateOf = function (name) { return rateText(r.fixtures.filter(function (f) { return f.fixture === name; })[0]); };
    root.appendChild(h('section', { id: 'pairs' }, [h('h2', { text: 'Constructed fixtures against their bases' }),
      table(null, ['constructed', 'base', 'rates', 'delta', 'Fisher p'], r.pairs.map(function (p) {
        return { attrs: { 'data-pair': p.constructed }, cells: [p.constructed, p.base, rateOf(p.constructed) + ' vs ' + rateOf(p.base), { k: 'delta', text: signedText(p.delta) }, { k: 'p', text: pText(p.p) }] };
      }))]));
  }
  if (r.rollout) root.appendChild(renderSurvival(r.rollout, run));
  root.appendChild(h('section', { id: 'demands' }, [h('h2', { text: 'What ' + r.target + ' demands of ' + r.reps + ' reps' }),
    table(null, ['reps lost to na or error'].concat(r.demands.map(function (d) { return String(d.lost); })), [
      { cells: ['qualified reps'].concat(r.demands.map(function (d) { return String(d.n); })) },
      { cells: ['passes needed'].concat(r.demands.map(function (d) { return String(d.passesNeeded); })) },
      { cells: ['fails tolerated'].concat(r.demands.map(function (d) { return String(d.failsTolerated); })) },
    ])]));
  root.appendChild(renderConsistency(r));
  if (run.agreements.length > 0) root.appendChild(renderAgreements(run.agreements));
  if (run.trust && run.trust.lines.length > 0) {
    root.appendChild(h('section', { id: 'trust' }, [h('h2', { text: 'Can I trust this number?' }),
      run.trust.summary ? h('p', { id: 'corrected-verdict', text: run.trust.summary }) : null,
      h('pre', { class: 'trust', text: run.trust.lines.join('\n') })]));
  }
  if (run.comparison) root.appendChild(renderComparison(run.comparison));
  if (r.warnings.length > 0) root.appendChild(h('section', { id: 'warnings' }, [h('h2', { text: 'Warnings' }), h('ul', null, r.warnings.map(function (w) { return h('li', { text: w }); }))]));
  var diffs = run.fixtures.filter(function (f) { return f.diff !== null; });
  if (diffs.length > 0) root.appendChild(h('section', { id: 'diffs' }, [h('h2', { text: 'Constructed fixtures: the recorded diff' })].concat(diffs.map(renderDiff))));
}

// pass^k for k = 1, 2, 3, 5, 10, ... and the reps (as the text report shows them); undefined where k > qualified.
function renderConsistency(r) {
  var most = Math.max.apply(null, [1].concat(r.fixtures.map(function (f) { return f.passK.length; })));
  var ks = [1, 2, 3, 5];
  for (var k = 10; k < most; k *= 10) ks.push(k);
  ks.push(most);
  ks = ks.filter(function (k, i) { return k <= most && ks.indexOf(k) === i; }).sort(function (a, b) { return a - b; });
  var cell = function (v) { return v === null || v === undefined ? 'undefined' : v.toFixed(3); };
  return h('section', { id: 'consistency' }, [h('h2', { text: 'Consistency' }),
    table('pass^k: the chance that k reps drawn from the qualified ones all pass', ['fixture'].concat(ks.map(function (k) { return 'pass^' + k; })),
      r.fixtures.map(function (f) {
        return { attrs: { 'data-consistency': f.fixture }, cells: [f.fixture].concat(ks.map(function (k) { return cell(f.passK[k - 1]); })) };
      })),
    h('ul', null, r.tags.map(function (t) {
      var c = t.consistency;
      return h('li', { 'data-consistency-tag': t.tag, text: t.tag + ': ' + c.allPassed + ' of ' + c.of + ' fixture(s) with qualified reps passed every one' + (c.share === null ? '' : ' (' + c.share.toFixed(2) + ')') });
    }))]);
}

// A rollout run: per fixture a step line of the share of reps still passing after each turn, then the same numbers
// as a table, and each constructed fixture against its base per turn.
function survivalChart(rollout, id) {
  var left = 60, plotW = 520, top = 20, plotH = 200, width = left + plotW + 250, height = top + plotH + 40;
  var steps = rollout.fixtures.length > 0 ? rollout.fixtures[0].steps : [];
  var n = Math.max(1, steps.length);
  var x = function (i) { return left + (i / n) * plotW; };
  var y = function (v) { return top + (1 - v) * plotH; };
  var title = 'Reps still passing after each turn, per fixture (' + rollout.turns + ' turns)';
  var desc = rollout.fixtures.map(function (f) {
    return f.fixture + ': ' + f.steps.map(function (st) { return 'turn ' + st.turn + ' ' + st.surviving + '/' + f.reps; }).join(', ');
  }).join('; ');
  var svg = s('svg', { role: 'img', viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, 'aria-labelledby': id + '-t ' + id + '-d', class: 'chart survival' }, [
    s('title', { id: id + '-t', text: title }),
    s('desc', { id: id + '-d', text: desc }),
  ]);
  [0, 0.5, 1].forEach(function (v) {
    svg.appendChild(s('line', { x1: left, x2: left + plotW, y1: y(v), y2: y(v), class: 'grid' }));
    svg.appendChild(s('text', { x: left - 8, y: y(v) + 4, 'text-anchor': 'end', class: 'tick', text: String(v) }));
  });
  steps.forEach(function (st, i) {
    svg.appendChild(s('text', { x: (x(i) + x(i + 1)) / 2, y: top + plotH + 18, 'text-anchor': 'middle', class: 'tick', text: 't' + st.turn }));
  });
  rollout.fixtures.forEach(function (f, k) {
    var points = [];
    f.steps.forEach(function (st, i) {
      var v = st.share === null ? 0 : st.share;
      points.push(x(i) + ',' + y(v), x(i + 1) + ',' + y(v));
    });
    svg.appendChild(s('polyline', { points: points.join(' '), class: 'survival-line line-' + (k % 4), fill: 'none' }));
    svg.appendChild(chartLabel({ x: left + plotW + 8, y: top + 14 + k * 18, class: 'label line-' + (k % 4) }, f.fixture, 30));
  });
  return h('figure', null, [svg, h('figcaption', { text: title + '. The table below holds the same numbers.' })]);
}

// The turns a person marked in the report's marks file (the report counts them): they fail a turn as checks do.
function turnsMarkedLine(rollout, run) {
  var marked = rollout.turnMarks ? rollout.turnMarks.marked : 0;
  if (marked === 0) return null;
  return h('p', { id: 'survival-turn-marks', text: marked + ' turn' + (marked === 1 ? '' : 's') + ' marked by a person in ' + run.report.marksFile + ' (' + rollout.turnMarks.failed + ' fail), counted with the checks.' });
}

function renderSurvival(rollout, run) {
  var turns = rollout.fixtures.length > 0 ? rollout.fixtures[0].steps.map(function (st) { return 't' + st.turn; }) : [];
  var section = h('section', { id: 'survival' }, [h('h2', { text: 'Survival over ' + rollout.turns + ' turns (reps with no failing turn so far)' }), survivalChart(rollout, 'chart-survival'), turnsMarkedLine(rollout, run)]);
  section.appendChild(table(null, ['fixture'].concat(turns).concat(['median first fail']), rollout.fixtures.map(function (f) {
    return { attrs: { 'data-survival': f.fixture }, cells: [f.fixture].concat(f.steps.map(function (st) { return { k: 't' + st.turn, text: st.surviving + '/' + f.reps }; }))
      .concat([{ k: 'median', text: f.medianFirstFailingTurn === null ? 'none failed' : 'turn ' + f.medianFirstFailingTurn }]) };
  })));
  if (rollout.pairs.length > 0) {
    section.appendChild(h('h3', { text: 'Does the fix hold? Constructed against base, per turn' }));
    section.appendChild(table(null, ['constructed', 'base', ''].concat(turns), rollout.pairs.map(function (p) {
      return { attrs: { 'data-survival-pair': p.constructed }, cells: [p.constructed, p.base, 'delta / Fisher p'].concat(p.steps.map(function (st) {
        return { k: 't' + st.turn, text: signedText(st.delta) + ' / ' + pText(st.p) };
      })) };
    })));
  }
  return section;
}

function renderAgreements(list) {
  var section = h('section', { id: 'agreements' }, [h('h2', { text: 'Agreement between graders' }),
    table(null, ['marks file', 'against', 'agreement', 'kappa', ''], list.map(function (a) {
      return { attrs: { 'data-agreement': a.file }, cells: [a.file, a.against,
        { k: 'ratio', text: a.matched === 0 ? 'no pass/fail in common' : a.agreed + '/' + a.matched + ' = ' + (a.agreed / a.matched).toFixed(3) },
        { k: 'kappa', text: a.kappa === null ? 'null' : a.kappa.toFixed(3) }, a.self ? 'self-agreement: the ceiling for any judge' : ''] };
    }))]);
  list.forEach(function (a) {
    var c = a.confusion;
    section.appendChild(h('h3', { text: a.file + ' against ' + a.against }));
    section.appendChild(table('Confusion matrix: rows ' + a.against + ', columns ' + a.file, ['', a.file + ' pass', a.file + ' fail'], [
      { cells: [a.against + ' pass', { k: 'pp', text: c.passPass }, { k: 'pf', text: c.passFail }] },
      { cells: [a.against + ' fail', { k: 'fp', text: c.failPass }, { k: 'ff', text: c.failFail }] },
    ], { class: 'confusion', 'data-confusion': a.file }));
    if (a.disagreements.length > 0) {
      section.appendChild(table('Disagreements (' + a.disagreements.length + ')', ['rep', a.against, 'note', a.file, 'note'], a.disagreements.map(function (d) {
        return { cells: [d.fixture + ' rep ' + d.rep, d.a, d.noteA, d.b, d.noteB] };
      }), { class: 'disagreements' }));
    }
  });
  return section;
}

function renderComparison(c) {
  var section = h('section', { id: 'comparison' }, [h('h2', { text: 'Against ' + c.otherDir }),
    table(null, ['fixture', 'tag', 'here', 'there', 'delta', 'Fisher p'], c.fixtures.map(function (f) {
      return { attrs: { 'data-compare': f.fixture }, cells: [f.fixture + (f.fixtureChanged ? ' (fixture changed)' : ''), f.tag || '', rateText(f.here), rateText(f.there), { k: 'delta', text: signedText(f.delta) }, { k: 'p', text: pText(f.p) }] };
    }))]);
  if (c.onlyHere.length > 0) section.appendChild(h('p', { text: 'Only in this run: ' + c.onlyHere.join(', ') }));
  if (c.onlyThere.length > 0) section.appendChild(h('p', { text: 'Only in the other run: ' + c.onlyThere.join(', ') }));
  c.warnings.forEach(function (w) { section.appendChild(h('p', { class: 'warning', text: 'warning: ' + w })); });
  return section;
}

// Removed text is struck through and wrapped in [-...-], added text underlined in {+...+}: it reads without color.
function diffSegments(segments) {
  return h('p', { class: 'diff' }, segments.map(function (seg) {
    if (seg.kind === 'removed') return h('del', { text: '[-' + seg.text + '-]' });
    if (seg.kind === 'added') return h('ins', { text: '{+' + seg.text + '+}' });
    return document.createTextNode(seg.text);
  }));
}

function renderDiff(f) {
  var box = h('div', { class: 'constructed', 'data-diff': f.name }, [h('h3', { text: f.name })]);
  if (typeof f.diff === 'string') return addAll(box, h('p', { text: f.diff }));
  return addAll(box, [h('p', { text: 'Turn ' + f.diff.turn + ' of ' + f.diff.base + ' changed: ' + f.diff.why })].concat(
    f.diff.changes.map(function (c) { return h('div', { class: 'change' }, [h('p', { class: 'path', text: '~ ' + c.path }), diffSegments(c.segments)]); })));
}
`;
