"""A well-behaved MCP server written with the SDK's high-level ``MCPServer`` API.

``python good_server.py`` serves over stdio; ``python good_server.py http PORT`` serves
Streamable HTTP on 127.0.0.1:PORT/mcp.
"""

from __future__ import annotations

import sys
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from pydantic import Field

server = MCPServer("weather-good", version="2.1.0", instructions="Weather look-ups by city.")


@server.tool()
def get_weather(
    city: Annotated[str, Field(description="City name, e.g. Paris.", min_length=1)],
    days: Annotated[int, Field(description="Forecast length in days.", ge=1, le=7)] = 1,
    unit: Annotated[
        Literal["celsius", "fahrenheit"], Field(description="Temperature unit.")
    ] = "celsius",
) -> str:
    """Forecast for a city over the next few days, in the unit asked for."""
    if not city.strip():
        raise ValueError("city must not be blank")
    return f"{city}: sunny for {days} day(s), 21 degrees {unit}"


@server.tool()
def convert_temperature(
    value: Annotated[float, Field(description="The temperature to convert.")],
    to: Annotated[Literal["celsius", "fahrenheit"], Field(description="Target unit.")],
) -> float:
    """Convert a temperature between Celsius and Fahrenheit."""
    return value * 9 / 5 + 32 if to == "fahrenheit" else (value - 32) * 5 / 9


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        server.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
