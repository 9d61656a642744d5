/* global echarts, jQuery3 */
/*
 * The usage pages (Manage Jenkins » Copilot usage, a folder's or job's Copilot usage): draws the trend of
 * div.copilot-usage-trend from the JSON at its data-url with ECharts (echarts-api), and makes the rows'
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
      tokens: themeColor('--light-blue', themeColor('--blue', '#4a90d9')),
      premiumRequests: themeColor('--purple', '#8e44ad'),
      sessions: text // the theme's own text colour: dark on light, light on dark
    };
    const withPremium = trend.premiumRequestsRecorded;
    const series = [{
      name: labels.tokens,
      type: 'bar',
      yAxisIndex: 0,
      barMaxWidth: 28,
      itemStyle: {color: colors.tokens, borderRadius: [3, 3, 0, 0]},
      data: trend.tokens
    }];
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
        name: labels.tokens,
        nameTextStyle: {color: secondary, align: 'left'},
        minInterval: 1,
        axisLabel: {color: secondary, formatter: function (v) {
          return compact.format(v);
        }},
        splitLine: splitLine
      }, {
        type: 'value',
        name: withPremium ? labels.sessions + ', ' + labels.premiumRequests : labels.sessions,
        nameTextStyle: {color: secondary, align: 'right'},
        minInterval: 1,
        axisLabel: {color: secondary},
        splitLine: {show: false}
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
    const day = column(table, 'copilot-usage-col-day');
    const tokens = column(table, 'copilot-usage-col-tokens');
    const premium = column(table, 'copilot-usage-col-premium');
    const sessions = column(table, 'copilot-usage-col-sessions');
    jQuery3(table).DataTable({
      order: [[day, 'desc'], [tokens, 'desc']], // as the server wrote them: newest day first, then the most tokens
      pageLength: 25,
      lengthMenu: [10, 25, 50, 100, {label: 'All', value: -1}],
      autoWidth: false,
      columnDefs: [
        {targets: day, type: 'string'}, // yyyy-MM-dd sorts as text, and stays left like the page's other text
        {targets: [tokens, premium, sessions], type: 'num', className: 'text-end'}
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
