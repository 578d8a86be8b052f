#!/usr/bin/env python3
"""Each public function of core/ carries its file's prefix (htop's rule:
Panel.c holds Panel_*). A file's prefixes are its name and the short forms
listed in PREFIXES (one module split over several files shares one). A
public function is a definition at column 0 not declared static."""
import os
import re
import sys

# file stem -> the prefixes its public functions may use besides "<stem>_"
PREFIXES = {
    "xalloc": ["x"],
    "strbuf": ["sb_"],
    "interval": ["ival_"],
    "jsonscan": ["json_"],
    "errinfo": ["status_"],
    "trace": ["ev_"],
    "load": ["trace_load_"],
    "load_event": ["load_"],
    "load_meta": ["load_"],
    "load_rows": ["load_"],
    "perfmodel": ["pm_"],
    "roofline": ["rf_"],
    "roofline_table": ["roofline_"],
    "roofline_plot": ["roofline_"],
    "pickle_value": ["pickle_", "pk_"],
    "pickle": ["pk_"],
    "symbolize": ["sym_", "symbolizer_"],
    "tree": ["trace_index"],
    "dwarfunit": ["dwarfidx_"],
    "synth_model": ["smodel_"],
    "synth_model_bwd": ["smodel_"],
    "synth_sim": ["sim_"],
    "synth_sim_pass": ["sim_"],
    "synth_moe": ["smodel_", "sim_"],
    "synth_emit": ["synth_"],
    "snapload": ["snapshot_"],
    "snapquery": ["snapshot_"],
    "snapseg": ["snapshot_"],
    "snapreport": ["snapshot_"],
    "difftree_table": ["difftree_"],
    "traceback": ["tb_"],
    "ranksum_io": ["ranksum_"],
    "job_tables": ["job_view_"],
    "hta_report_launch": ["hta_report_"],
    "critpath_whatif": ["critpath_"],
    "find_rules": ["find_rule_"],
    "find_roof": ["find_roof_"],
    "job_findings": ["job_findings_"],
    "find_table": ["findings_"],
    "synth_inject": ["sim_inject_", "smodel_"],
    "tracecache_file": ["tracecache_"],
    "tracecache_check": ["tracecache_"],
}

DEF = re.compile(r"^(?!static\b)[A-Za-z_][A-Za-z0-9_ \*]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def public_functions(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        if not line.startswith("{"):
            continue
        j = i - 1
        while j > 0 and not re.match(r"^[A-Za-z_]", lines[j]):
            j -= 1
        m = DEF.match(lines[j])
        if m and not lines[j].startswith(("typedef", "struct ", "enum ", "union ")) or \
                (m and "(" in lines[j] and lines[j].startswith(("struct ", "enum "))):
            yield m.group(1), j + 1


def main():
    root = os.path.join(os.environ.get("top_srcdir", "."), "core")
    bad = 0
    for folder in sorted(os.listdir(root)):
        d = os.path.join(root, folder)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(".c"):
                continue
            stem = f[:-2]
            allowed = [stem + "_"] + PREFIXES.get(stem, [])
            for name, line in public_functions(os.path.join(d, f)):
                if name != stem and not name.startswith(tuple(allowed)):
                    print(f"core/{folder}/{f}:{line}: {name} lacks the file's prefix "
                          f"({' or '.join(allowed)})")
                    bad += 1
    print(f"{0 if bad else 1} passed, {1 if bad else 0} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
