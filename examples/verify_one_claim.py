"""Verify one claim from Python and print its verdict, reading and evidence.

Usage: ``python examples/verify_one_claim.py [CLAIM_ID]`` (default ``pcr.pde.cosine``).
"""

import json
import sys

import moetheory


def main(claim_id: str = "pcr.pde.cosine") -> int:
    report = moetheory.verify([claim_id], profile="quick", seed=0)
    entry = report["claims"][0]
    print(f"{entry['id']}: {entry['verdict']} — {entry['summary']}")
    print(f"reading checked: {entry['reading']}")
    for reading in entry["readings"]:
        print(f"  reading {reading['name']}: {reading['verdict']} — {reading['summary']}")
    print("evidence:")
    print(json.dumps(entry["evidence"], indent=2, ensure_ascii=False)[:2000])
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
