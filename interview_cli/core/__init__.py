"""The pure core: graph, de-duplication, state, node tracking, signals, scoring, vetoes and
continuation. Functions here take data and return data: no I/O, clock, randomness, terminal or
provider SDKs, so that every decision can be replayed from recorded inputs."""
