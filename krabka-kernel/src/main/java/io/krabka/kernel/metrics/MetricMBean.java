package io.krabka.kernel.metrics;

import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;

/** One metric as a read-only JMX MBean: its attributes, nothing to set or invoke. */
final class MetricMBean implements DynamicMBean {

    private final Metric metric;

    MetricMBean(Metric metric) {
        this.metric = metric;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Number value = metric.attributes().get(attribute);
        if (value == null) {
            throw new AttributeNotFoundException(attribute);
        }
        return value;
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException("metrics are read-only");
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        Map<String, Number> values = metric.attributes();
        AttributeList list = new AttributeList();
        for (String name : names) {
            if (values.containsKey(name)) {
                list.add(new Attribute(name, values.get(name)));
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("metrics have no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        MBeanAttributeInfo[] attributes = metric.attributes().entrySet().stream()
                .map(e -> new MBeanAttributeInfo(
                        e.getKey(), e.getValue().getClass().getName(), e.getKey(), true, false, false))
                .toArray(MBeanAttributeInfo[]::new);
        return new MBeanInfo(metric.getClass().getName(), "A Krabka metric", attributes, null, null, null);
    }
}
