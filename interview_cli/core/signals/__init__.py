"""core signals package."""
