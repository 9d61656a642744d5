/* global echarts, jQuery3 */
/*
 * The usage pages (Manage Jenkins » Copilot usage, a folder's or job's Copilot usage): draws the trend of
 * div.copilot-usage-trend from the JSON at its data-url with ECharts (echarts-api): AI credits as bars where any were
 * reported, else tokens as before; and makes the rows'
 * table.copilot-usage-rows pageable, searchable and sortable with DataTables (data-tables-api), its footer the totals
 * of the rows found. An adjunct: no inline script, the page passes what it needs in data- attributes.
 */
(function () {
  'use strict';

  /** A colour of Jenkins' theme (a CSS variable), else the fallback. */
  function themeColor(name, fallback) {
    const value = getComputedStyle(document.body).getPropertyValue(name);
    return value && value.trim() ? value.trim() : fallback;
  }

  const whole = new Intl.NumberFormat('en-US', {maximumFractionDigits: 0});
  const compact = new Intl.NumberFormat('en-US', {notation: 'compact', maximumFractionDigits: 1});

  const fraction = new Intl.NumberFormat('en-US', {maximumFractionDigits: 4});

  /** Premium requests as the page writes them: thousands separators, up to 4 decimals. */
  function premiumText(value) {
    return fraction.format(value);
  }

  const cents = new Intl.NumberFormat('en-US', {maximumFractionDigits: 2});

  /** AI credits as the page writes them: to the hundredth (a credit is a cent), "<0.01" for less but more than 0. */
  function creditsText(value) {
    return value > 0 && value < 0.005 ? '<0.01' : cents.format(value);
  }

  /**
   * A day's AI credits: "not reported" for null (spend without an amount, unknown, not 0); "at least" when some of
   * its sessions reported none.
   */
  function dayCreditsText(value, without, labels) {
    if (value === null || value === undefined) {
      return labels.notReported;
    }
    return without > 0 ? labels.atLeast.replace('{0}', creditsText(value)) : creditsText(value);
  }

  /** A yyyy-MM-dd day as a local date (not UTC midnight). */
  function parseDay(day) {
    const parts = day.split('-').map(Number);
    return new Date(parts[0], parts[1] - 1, parts[2]);
  }

  function shortDay(day) {
    return parseDay(day).toLocaleDateString(undefined, {month: 'short', day: 'numeric'});
  }

  function longDay(day) {
    return parseDay(day).toLocaleDateString(undefined, {weekday: 'short', year: 'numeric', month: 'short', day: 'numeric'})
        + ' (' + day + ')';
  }

  function escapeHtml(text) {
    const div = document.createElement('div');
    div.textContent = text;
    return div.innerHTML;
  }

  function renderTrend(holder) {
    if (typeof echarts === 'undefined') {
      return;
    }
    const labels = {
      aiCredits: holder.getAttribute('data-ai-credits-label'),
      notReported: holder.getAttribute('data-not-reported'),
      atLeast: holder.getAttribute('data-at-least'),
      tokens: holder.getAttribute('data-tokens-label'),
      premiumRequests: holder.getAttribute('data-premium-requests-label'),
      sessions: holder.getAttribute('data-sessions-label')
    };
    const chart = echarts.init(holder);
    let loaded = null;
    function resize() {
      if (loaded) {
        chart.setOption({xAxis: {axisLabel: {interval: labelInterval(loaded.days.length, holder.clientWidth)}}});
      }
      chart.resize();
    }
    chart.showLoading({text: '', color: themeColor('--text-color-secondary', '#888'), maskColor: 'transparent'});
    fetch(holder.getAttribute('data-url'), {credentials: 'same-origin', headers: {Accept: 'application/json'}})
      .then(function (response) {
        if (!response.ok) {
          throw new Error(response.status + ' ' + response.statusText);
        }
        return response.json();
      })
      .then(function (trend) {
        chart.hideLoading();
        chart.setOption(options(trend, labels, holder.clientWidth), true);
        loaded = trend;
      })
      .catch(function (e) {
        chart.hideLoading();
        holder.classList.add('copilot-usage-trend--failed');
        holder.textContent = 'The trend could not be loaded: ' + e.message;
      });
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(resize).observe(holder);
    } else {
      window.addEventListener('resize', resize);
    }
  }

  /** Markers on the days with something to show only: thirty markers on zero say nothing. */
  function markOnlyNonZero(value) {
    return value > 0 ? 6 : 0;
  }

  /**
   * Labels every {@code step} days counted back from the newest, so that the newest day always has its label; the
   * step is as small as the chart's width allows (a tick stays on every day).
   */
  function labelInterval(count, width) {
    const step = Math.max(1, Math.ceil(count * 64 / Math.max(width - 120, 64)));
    return function (index) {
      return (count - 1 - index) % step === 0;
    };
  }

  function options(trend, labels, width) {
    const text = themeColor('--text-color', '#333');
    const secondary = themeColor('--text-color-secondary', '#666');
    const grid = themeColor('--medium-grey', '#ddd');
    const colors = {
      aiCredits: themeColor('--green', '#1ea446'),
      tokens: themeColor('--light-blue', themeColor('--blue', '#4a90d9')),
      premiumRequests: themeColor('--purple', '#8e44ad'),
      sessions: text // the theme's own text colour: dark on light, light on dark
    };
    const withPremium = trend.premiumRequestsRecorded;
    // AI credits lead where reported (the unit GitHub bills): their bars on the left axis, tokens a line on an axis of
    // their own (hidden: three scales side by side say little); without any, tokens are the bars as before
    const withCredits = trend.aiCreditsRecorded === true;
    const series = [];
    if (withCredits) {
      series.push({
        name: labels.aiCredits,
        type: 'bar',
        yAxisIndex: 0,
        barMaxWidth: 28,
        itemStyle: {color: colors.aiCredits, borderRadius: [3, 3, 0, 0]},
        data: trend.aiCredits // null: a day whose sessions reported none, drawn as no bar, not as 0
      });
      series.push({
        name: labels.tokens,
        type: 'line',
        yAxisIndex: 2,
        symbolSize: markOnlyNonZero,
        itemStyle: {color: colors.tokens},
        lineStyle: {color: colors.tokens, width: 2},
        data: trend.tokens
      });
    } else {
      series.push({
        name: labels.tokens,
        type: 'bar',
        yAxisIndex: 0,
        barMaxWidth: 28,
        itemStyle: {color: colors.tokens, borderRadius: [3, 3, 0, 0]},
        data: trend.tokens
      });
    }
    if (withPremium) {
      series.push({
        name: labels.premiumRequests,
        type: 'line',
        yAxisIndex: 1,
        symbolSize: markOnlyNonZero,
        itemStyle: {color: colors.premiumRequests},
        lineStyle: {color: colors.premiumRequests, width: 2},
        data: trend.premiumRequests
      });
    }
    series.push({
      name: labels.sessions,
      type: 'line',
      yAxisIndex: 1,
      symbolSize: markOnlyNonZero,
      itemStyle: {color: colors.sessions},
      lineStyle: {color: colors.sessions, width: 2, type: 'dashed', opacity: 0.75},
      data: trend.sessions
    });
    const axisLine = {lineStyle: {color: grid}};
    const splitLine = {lineStyle: {color: grid, type: 'dotted'}};
    return {
      animation: false,
      textStyle: {color: text},
      legend: {top: 0, textStyle: {color: text}},
      grid: {left: 16, right: 16, top: 48, bottom: 8, containLabel: true},
      tooltip: {
        trigger: 'axis',
        axisPointer: {type: 'shadow'},
        formatter: function (points) {
          const i = points[0].dataIndex;
          const day = trend.days[i];
          const lines = ['<strong>' + escapeHtml(longDay(day)) + '</strong>'];
          if (withCredits) {
            const without = trend.sessionsWithoutAiCredits ? trend.sessionsWithoutAiCredits[i] : 0;
            lines.push(escapeHtml(labels.aiCredits) + ': ' + escapeHtml(dayCreditsText(trend.aiCredits[i], without, labels)));
          }
          lines.push(escapeHtml(labels.tokens) + ': ' + whole.format(trend.tokens[i]));
          if (withPremium) {
            lines.push(escapeHtml(labels.premiumRequests) + ': ' + premiumText(trend.premiumRequests[i]));
          }
          lines.push(escapeHtml(labels.sessions) + ': ' + whole.format(trend.sessions[i]));
          const outcomes = Object.keys(trend.outcomes[i] || {}).map(function (o) {
            return trend.outcomes[i][o] + ' ' + o;
          });
          if (outcomes.length > 0) {
            lines.push(escapeHtml(outcomes.join(', ')));
          }
          return lines.join('<br/>');
        }
      },
      xAxis: {
        type: 'category',
        data: trend.days,
        axisLine: axisLine,
        axisTick: {alignWithLabel: true, interval: 0, lineStyle: {color: grid}},
        axisLabel: {color: secondary, interval: labelInterval(trend.days.length, width), formatter: shortDay}
      },
      yAxis: [{
        type: 'value',
        name: withCredits ? labels.aiCredits : labels.tokens,
        nameTextStyle: {color: secondary, align: 'left'},
        minInterval: withCredits ? 0 : 1, // credits come in hundredths
        axisLabel: {color: secondary, formatter: function (v) {
          return withCredits ? creditsText(v) : compact.format(v);
        }},
        splitLine: splitLine
      }, {
        type: 'value',
        name: withPremium ? labels.sessions + ', ' + labels.premiumRequests : labels.sessions,
        nameTextStyle: {color: secondary, align: 'right'},
        minInterval: 1,
        axisLabel: {color: secondary},
        splitLine: {show: false}
      }, {
        type: 'value', // the tokens' line beside the AI credits' bars: its scale in the tooltip, not on an axis
        show: false,
        min: 0
      }],
      series: series
    };
  }

  /** The index of the column whose header has the class, else -1. */
  function column(table, cssClass) {
    const headers = Array.prototype.slice.call(table.querySelectorAll('thead th'));
    return headers.findIndex(function (th) {
      return th.classList.contains(cssClass);
    });
  }

  /**
   * The AI credits of the rows found (all pages): the amounts reported (a cell's data-order, -1 for none), and whether
   * some sessions reported none (data-without); null when no row has an amount.
   */
  function creditsSum(api, column) {
    let total = null;
    let without = 0;
    api.cells(null, column, {search: 'applied'}).nodes().each(function (cell) {
      const value = Number(cell.getAttribute('data-order'));
      if (cell.getAttribute('data-order') !== '' && value >= 0) {
        total = (total || 0) + value;
      }
      without += Number(cell.getAttribute('data-without')) || 0;
    });
    return {total: total, without: without};
  }

  /** The numbers of a column of the rows found (all pages), from the cells' data-order. */
  function sum(api, column) {
    let total = 0;
    api.cells(null, column, {search: 'applied'}).nodes().each(function (cell) {
      total += Number(cell.getAttribute('data-order')) || 0;
    });
    return total;
  }

  function bindTable(table) {
    if (typeof jQuery3 === 'undefined' || !jQuery3.fn.DataTable) {
      return; // the table as the server wrote it: complete, newest first
    }
    const totalLabel = table.getAttribute('data-total-label');
    const filteredTotalLabel = table.getAttribute('data-filtered-total-label');
    const oneRow = table.getAttribute('data-one-row');
    const manyRows = table.getAttribute('data-many-rows');
    const footer = table.querySelector('tr.copilot-usage-totals');
    const creditLabels = {
      notReported: table.getAttribute('data-not-reported'),
      atLeast: table.getAttribute('data-at-least')
    };
    const day = column(table, 'copilot-usage-col-day');
    const credits = column(table, 'copilot-usage-col-credits');
    const tokens = column(table, 'copilot-usage-col-tokens');
    const premium = column(table, 'copilot-usage-col-premium');
    const sessions = column(table, 'copilot-usage-col-sessions');
    jQuery3(table).DataTable({
      // as the server wrote them: newest day first, then the most AI credits (none reported last), the most tokens
      order: [[day, 'desc'], [credits, 'desc'], [tokens, 'desc']],
      pageLength: 25,
      lengthMenu: [10, 25, 50, 100, {label: 'All', value: -1}],
      autoWidth: false,
      columnDefs: [
        {targets: day, type: 'string'}, // yyyy-MM-dd sorts as text, and stays left like the page's other text
        {targets: [credits, tokens, premium, sessions], type: 'num', className: 'text-end'}
      ],
      footerCallback: function () {
        if (!footer) {
          return;
        }
        const api = this.api();
        const found = api.rows({search: 'applied'}).count();
        const all = api.rows().count();
        footer.querySelector('.copilot-usage-total-label').textContent = found === all ? totalLabel : filteredTotalLabel;
        footer.querySelector('.copilot-usage-total-rows').textContent = found === 1 ? oneRow
          : manyRows.replace('{0}', whole.format(found));
        const spent = creditsSum(api, credits);
        const creditsCell = footer.querySelector('.copilot-usage-total-credits');
        creditsCell.textContent = '';
        if (spent.total === null) {
          const note = document.createElement('span');
          note.className = 'copilot-usage-note';
          note.textContent = creditLabels.notReported;
          creditsCell.appendChild(note);
        } else {
          creditsCell.textContent = dayCreditsText(spent.total, spent.without, creditLabels);
        }
        footer.querySelector('.copilot-usage-total-tokens').textContent = whole.format(sum(api, tokens));
        footer.querySelector('.copilot-usage-total-premium').textContent = premiumText(sum(api, premium));
        footer.querySelector('.copilot-usage-total-sessions').textContent = whole.format(sum(api, sessions));
      }
    });
  }

  function init() {
    document.querySelectorAll('div.copilot-usage-trend[data-url]').forEach(renderTrend);
    document.querySelectorAll('table.copilot-usage-rows').forEach(bindTable);
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', init);
  } else {
    init();
  }
})();
