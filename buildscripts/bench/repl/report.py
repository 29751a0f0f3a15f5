"""REPORT.md and figures from repl_bench.py's results (also: python report.py <results dir> to
redraw from a results.json). Figures are PNG through matplotlib when it is installed, else CSV."""
import csv
import json
import os
import sys

TARGETS = {
    "kill9_median_s": 12.0,      # MongoDB's documented figure with default settings
    "kill9_goal_s": 2.0,         # goal when the dead process refuses connections
    "stepdown_s": 2.0,
    "majority_over_w1": 0.7,
}


def _fmt(x, nd=2):
    return "n/a" if x is None else ("%.*f" % (nd, x))


def _ok(cond):
    return "met" if cond else "**not met**"


def _throughput_runs(tp):
    """Every throughput run (older results hold only w_1 and w_majority)."""
    return tp.get("runs") or [tp[k] for k in ("w_1", "w_majority") if tp.get(k)]


def _figures(results, out):
    """Returns the markdown lines that show the figures."""
    lines = []
    fo = results.get("failover") or {}
    lag = results.get("lag") or {}
    tp = results.get("throughput") or {}
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
    if fo:
        kinds = [k for k in ("stepdown", "kill9", "sigstop") if fo.get(k, {}).get("trials")]
        if plt:
            fig, ax = plt.subplots(figsize=(6, 3.5))
            for j, k in enumerate(kinds):
                ts = fo[k]["trials"]
                ax.scatter([j] * len(ts), ts, alpha=0.6)
            ax.set_xticks(range(len(kinds)))
            ax.set_xticklabels(kinds)
            ax.axhline(TARGETS["kill9_median_s"], ls="--", c="grey", lw=0.8)
            ax.axhline(TARGETS["stepdown_s"], ls=":", c="grey", lw=0.8)
            ax.set_ylabel("seconds to a new primary")
            ax.set_title("Failover time per trial")
            fig.tight_layout()
            fig.savefig(os.path.join(out, "failover.png"), dpi=100)
            plt.close(fig)
            lines.append("![failover](failover.png)")
        else:
            with open(os.path.join(out, "failover.csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["kind", "trial", "seconds"])
                for k in kinds:
                    for i, t in enumerate(fo[k]["trials"]):
                        w.writerow([k, i + 1, "%.3f" % t])
            lines.append("Failover trials: [failover.csv](failover.csv)")
    if lag.get("samples"):
        if plt:
            fig, ax = plt.subplots(figsize=(6, 3.5))
            for member in sorted(set(s[1] for s in lag["samples"])):
                pts = [(s[0], s[2] * 1000) for s in lag["samples"] if s[1] == member and s[2] is not None]
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label="member %d" % member)
            ax.set_xlabel("seconds into the load")
            ax.set_ylabel("marker visible after (ms)")
            ax.set_title("Replication lag under w:1 load (%d clients)" % lag["clients"])
            ax.legend()
            fig.tight_layout()
            fig.savefig(os.path.join(out, "lag.png"), dpi=100)
            plt.close(fig)
            lines.append("![lag](lag.png)")
        else:
            with open(os.path.join(out, "lag.csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["t_s", "member", "lag_ms"])
                for s in lag["samples"]:
                    w.writerow(["%.2f" % s[0], s[1], "" if s[2] is None else "%.2f" % (s[2] * 1000)])
            lines.append("Lag samples: [lag.csv](lag.csv)")
    runs = _throughput_runs(tp)
    if runs and plt:
        fig, ax = plt.subplots(figsize=(6, 3.2))
        for w, label in ((1, "w:1"), ("majority", "w:majority")):
            pts = sorted((r["clients"], r["ops_per_s"]) for r in runs if r["w"] == w)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("client processes")
        ax.set_ylabel("inserts/s")
        ax.set_ylim(bottom=0)
        ax.legend()
        ax.set_title("Insert throughput against concurrency")
        fig.tight_layout()
        fig.savefig(os.path.join(out, "throughput.png"), dpi=100)
        plt.close(fig)
        lines.append("![throughput](throughput.png)")
    return lines


def write(results, out):
    cfg = results["config"]
    L = []
    title = "Replication benchmark"
    if cfg.get("smoke"):
        title += " -- SMOKE RUN (few trials, seconds of load; not the real figures)"
    L.append("# " + title)
    L.append("")
    if cfg.get("label"):
        L.append("> " + cfg["label"])
        L.append("")
    L.append("Three members of one replica set on %s (%d CPUs), default settings (electionTimeoutMillis 10 s). "
             "Started %s; load average %s at the start, %s at the end. Produced by "
             "`buildscripts/bench/repl/repl_bench.py`%s." % (
                 cfg.get("machine"), cfg.get("cpus") or 0, cfg.get("started"),
                 "/".join("%.1f" % x for x in cfg.get("loadavg_start", [])),
                 "/".join("%.1f" % x for x in cfg.get("loadavg_end", [])),
                 " --smoke" if cfg.get("smoke") else ""))
    L.append("")
    L.append("## Targets (issue 10)")
    L.append("")
    L.append("| target | measured | status |")
    L.append("|---|---|---|")
    fo = results.get("failover") or {}
    tp = results.get("throughput") or {}
    if fo.get("kill9"):
        k9 = fo["kill9"]["median_s"]
        L.append("| kill -9 of the primary: median <= 12 s | %s s (max %s s) | %s |" % (
            _fmt(k9), _fmt(fo["kill9"]["max_s"]), _ok(k9 is not None and k9 <= TARGETS["kill9_median_s"])))
        L.append("| kill -9 goal: < 2 s (dead process refuses connections) | %s s | %s |" % (
            _fmt(k9), _ok(k9 is not None and k9 < TARGETS["kill9_goal_s"])))
    if fo.get("stepdown"):
        sd = fo["stepdown"]["max_s"]
        L.append("| rs.stepDown(): new primary within 2 s | max %s s (median %s s) | %s |" % (
            _fmt(sd), _fmt(fo["stepdown"]["median_s"]), _ok(sd is not None and sd <= TARGETS["stepdown_s"])))
    if fo.get("majority_writes"):
        mw = fo.get("majority_writes", {})
        L.append("| 0 acknowledged w:majority writes lost | %s lost of %s (members checked: %s) | %s |" % (
            mw.get("lost"), mw.get("acknowledged"), ", ".join(str(i) for i in mw.get("members_checked", [])),
            _ok(mw.get("lost") == 0)))
    if tp.get("majority_over_w1") is not None:
        L.append("| w:majority throughput >= 0.7 of w:1 at saturation | %.2f (%d vs %d clients) | %s |" % (
            tp["majority_over_w1"], tp["w_majority"]["clients"], tp["w_1"]["clients"],
            _ok(tp["majority_over_w1"] >= TARGETS["majority_over_w1"])))
    L.append("")
    if fo:
        L.append("## Failover (%d trials each, light w:majority insert load)" % cfg["trials"])
        L.append("")
        L.append("Time from the fault (signal sent, or replSetStepDown sent) until another member answers "
                 "`hello` with `isWritablePrimary: true`.")
        L.append("")
        L.append("| fault | median (s) | max (s) | trials (s) |")
        L.append("|---|---|---|---|")
        for k, name in (("kill9", "kill -9 of the primary"), ("sigstop", "SIGSTOP of the primary"),
                        ("stepdown", "replSetStepDown")):
            if k in fo:
                notes = []
                if fo[k].get("rollbacks"):
                    notes.append("%d rollback(s) of members that had diverged" % fo[k]["rollbacks"])
                if fo[k].get("reseeded_after"):
                    notes.append("after %d trial(s) a member was still not PRIMARY/SECONDARY after 120 s and was "
                                 "emptied to initial-sync" % fo[k]["reseeded_after"])
                extra = " (%s)" % "; ".join(notes) if notes else ""
                if fo[k].get("error"):
                    extra = " (stopped: %s)" % fo[k]["error"]
                L.append("| %s | %s | %s | %s%s |" % (name, _fmt(fo[k]["median_s"]), _fmt(fo[k]["max_s"]),
                                                    ", ".join("%.2f" % t for t in fo[k]["trials"]), extra))
        L.append("")
    if tp:
        L.append("## Insert throughput at saturation")
        L.append("")
        L.append("Each client process inserts one small document per call, with no pause. Saturation is each "
                 "write concern's fastest run (marked *).")
        L.append("")
        L.append("| write concern | clients | ops/s | p50 (ms) | p99 (ms) | w:majority / w:1 |")
        L.append("|---|---|---|---|---|---|")
        runs = _throughput_runs(tp)
        for r in sorted(runs, key=lambda r: (r["clients"], str(r["w"]))):
            best = r == tp.get("w_%s" % r["w"])
            ratio = ""
            if r["w"] == "majority":
                w1 = [x for x in runs if x["w"] == 1 and x["clients"] == r["clients"]]
                ratio = "%.2f" % (r["ops_per_s"] / w1[0]["ops_per_s"]) if w1 else ""
            L.append("| %s | %d | %.0f%s | %s | %s | %s |" % (r["w"], r["clients"], r["ops_per_s"], " *" if best else "",
                                                       _fmt(r["p50_ms"]), _fmt(r["p99_ms"]), ratio))
        L.append("")
    lag = results.get("lag")
    if lag:
        L.append("## Replication lag under sustained w:1 load")
        L.append("")
        L.append("A marker document inserted on the primary every 0.25 s while %d clients insert; the time until "
                 "a direct read on each secondary sees it: p50 %s ms, p99 %s ms, max %s ms over %d samples "
                 "(%d not seen within 30 s)." % (lag["clients"], _fmt(lag["p50_ms"], 1), _fmt(lag["p99_ms"], 1),
                                                 _fmt(lag["max_ms"], 1), len(lag["samples"]), lag["not_seen_within_30s"]))
        L.append("")
    op = results.get("oplog")
    if op:
        L.append("## Oplog bytes per logical byte")
        L.append("")
        L.append("| operation | count | logical bytes | oplog bytes | ratio |")
        L.append("|---|---|---|---|---|")
        for k, r in op.items():
            L.append("| %s | %d | %d | %d | %.2f |" % (k, r.get("docs", r.get("updates", 0)), r["logical_bytes"], r["oplog_bytes"], r["ratio"]))
        L.append("")
        L.append("Logical bytes: the BSON size of the inserted documents; for updates, the BSON element of the "
                 "changed field. Oplog bytes: growth of `local.oplog.rs`'s collStats `size`.")
        L.append("")
    isync = results.get("initial_sync")
    if isync is not None:
        L.append("## Initial sync")
        L.append("")
        if isync.get("measured"):
            L.append("An emptied secondary restarted: %.1f MB of data in %.1f s to SECONDARY, **%.1f MB/s**."
                     % (isync["data_mb"], isync["seconds"], isync["mb_per_s"]))
        else:
            L.append("Not measured: %s." % isync.get("why"))
        L.append("")
    figs = _figures(results, out)
    if figs:
        L.append("## Figures")
        L.append("")
        L.extend(figs)
        L.append("")
    with open(os.path.join(out, "REPORT.md"), "w") as f:
        f.write("\n".join(L))


if __name__ == "__main__":
    d = sys.argv[1]
    with open(os.path.join(d, "results.json")) as f:
        write(json.load(f), d)
