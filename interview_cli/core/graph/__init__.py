"""The surface knowledge graph of a session (seed 001 "Graph Structure").

- ``knowledge``: ``KnowledgeGraph``, the nodes and relations in the respondent's words
- ``records``: the read-only node and relation records it hands out
- ``update``: one answer's extraction applied to the graph, and the record of what changed
- ``dedup``: surface node de-duplication (exact -> fuzzy -> optional embedding tier)
- ``depth``: chain depth on a graph that may hold cycles
- ``node_link``: the graph as JSON (networkx node-link data), as session files keep it
"""
