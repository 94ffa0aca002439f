"""Fail early, with the fix, when the environment would crash QGIS or mis-compute.

- numpy must be < 2 (numpy 2 breaks osgeo.gdal_array and matplotlib inside QGIS);
- pyproj, shapely and fiona must be Debian's (pip wheels bundling PROJ/GDAL crash QGIS at exit).
"""
import sys

import numpy
import fiona
import pyproj
import shapely

problems = []
if int(numpy.__version__.split(".")[0]) >= 2:
    problems.append(f"numpy {numpy.__version__} is installed; pin numpy<2")
for mod in (pyproj, shapely, fiona):
    if not mod.__file__.startswith("/usr/lib/python3/dist-packages"):
        problems.append(f"{mod.__name__} comes from {mod.__file__}, not Debian; "
                        f"`pip uninstall {mod.__name__}` inside .venv")
if problems:
    print("environment check failed:\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"environment ok: numpy {numpy.__version__}, pyproj {pyproj.__version__}, "
      f"shapely {shapely.__version__}, fiona {fiona.__version__} (Debian)")
